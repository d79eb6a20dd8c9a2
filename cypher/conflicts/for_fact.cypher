// The open conflicts a fact is involved in.
MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f:Fact {id: $id})
WHERE c.space = $space
RETURN c {.*} AS conflict
