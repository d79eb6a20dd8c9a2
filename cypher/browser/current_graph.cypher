// Neo4j Browser: a space's current graph (its ACTIVE facts, their entities, the live edges).
// Set the space first:  :param space => 'default/default/default/default'
MATCH (f:Fact {space: $space, status: 'ACTIVE'})-[about:ABOUT]->(e:Entity)
OPTIONAL MATCH (e)-[edge]->(other:Entity)
WHERE edge.fact_id = f.id
RETURN f, about, e, edge, other
LIMIT 500
