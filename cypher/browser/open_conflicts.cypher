// Neo4j Browser: the open conflicts of a space and the facts each one involves.
// :param space => 'default/default/default/default'
MATCH (c:Conflict {space: $space, status: 'open'})-[involves:INVOLVES]->(f:Fact)
RETURN c, involves, f
ORDER BY c.created_at
