// Which subjects hold ACTIVE facts in a scope other than the one asked about.
UNWIND $slots AS slot
OPTIONAL MATCH (f:Fact {space: $space, subject: slot.subject, status: 'ACTIVE'})
WHERE f.scope <> slot.scope
WITH slot, count(f) AS n
RETURN slot.subject AS subject, slot.scope AS scope, n > 0 AS elsewhere
