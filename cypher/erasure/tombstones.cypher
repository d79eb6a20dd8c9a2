// The tombstones that retract the given facts: their value names the retracted value.
UNWIND $ids AS id
MATCH (t:Fact)-[:RETRACTS]->(:Fact {id: id})
WHERE t.space = $space
RETURN DISTINCT t.id AS id
