// The open conflicts a fact is involved in, with the fact's status (a proposal still held
// is FLAGGED_CONFLICT; the value it would replace, or a proposal already settled, is not).
MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f:Fact {id: $id})
WHERE c.space = $space
RETURN c {.*} AS conflict, f.status AS fact_status
