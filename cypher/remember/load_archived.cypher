// Values already archived as past facts in the given slots (restated past facts are DEDUP).
UNWIND $slots AS slot
MATCH (f:Fact {space: $space, subject: slot.subject, scope: slot.scope, status: 'HISTORICAL'})
WHERE f.archived = true
RETURN slot.subject AS subject, slot.scope AS scope, collect(f.value_key) AS values
