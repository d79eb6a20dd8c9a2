// Neo4j Browser: everything within three live hops of one entity (any type of that name).
// :param space => 'default/default/default/default'
// :param name => 'Billing'
MATCH (start:Entity {space: $space})
WHERE start.norm = toLower(trim($name))
MATCH path = (start)-[edges*1..3]-(:Entity)
WHERE all(edge IN edges WHERE edge.status = 'ACTIVE')
RETURN path
LIMIT 300
