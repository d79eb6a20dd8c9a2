// Open conflicts touching any of the given facts, with every fact each one involves.
MATCH (f:Fact)
USING INDEX f:Fact(id)
WHERE f.id IN $ids AND f.space = $space
MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f)
WITH DISTINCT c
RETURN c {.*} AS conflict,
       COLLECT { MATCH (c)-[:INVOLVES]->(x:Fact)
                 RETURN x {.id, .subject, .scope, .value, .status, .recorded_at} } AS facts
ORDER BY conflict.created_at, conflict.id
