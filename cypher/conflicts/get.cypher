MATCH (c:Conflict {id: $id})
WHERE c.space = $space
OPTIONAL MATCH (c)-[:INVOLVES]->(f:Fact)
RETURN c {.*} AS conflict, collect(f {.*}) AS facts
