// The hot facts (ACTIVE, FLAGGED_CONFLICT) of the given slots, through the slot index.
UNWIND $slots AS slot
MATCH (f:Fact {space: $space, subject: slot.subject, scope: slot.scope})
WHERE f.status IN ['ACTIVE', 'FLAGGED_CONFLICT']
RETURN f {.*} AS fact
