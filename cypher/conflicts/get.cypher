// One conflict as its node (graph.nodes.ConflictNode inflates it), with its facts.
MATCH (c:Conflict {id: $id})
WHERE c.space = $space
OPTIONAL MATCH (c)-[:INVOLVES]->(f:Fact)
RETURN c AS conflict, collect(f {.*}) AS facts
