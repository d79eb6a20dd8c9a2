// Attach every placeholder (type unknown) to the one typed entity of its name: its ABOUT and
// projection edges move over (types are copied from the existing edges, never from input),
// the facts' stored keys follow, and the placeholder goes. Ambiguous ones stay put.
MATCH (s:Space {key: $space})
SET s.writes = coalesce(s.writes, 0) + 1
WITH s
MATCH (p:Entity {space: $space})
WHERE p.key STARTS WITH 'unknown:'
OPTIONAL MATCH (t:Entity {space: $space})
WHERE t.key IN [type IN $types | type + ':' + p.norm]
WITH p, collect(t) AS targets
WITH p, p.key AS placeholder, CASE WHEN size(targets) = 1 THEN targets[0] END AS target
CALL (p, target) {
  WITH p, target WHERE target IS NOT NULL
  CALL (p, target) {
    MATCH (p)-[r]->(x:Entity)
    CREATE (target)-[moved:$(type(r))]->(x)
    SET moved = properties(r)
    DELETE r
  }
  CALL (p, target) {
    MATCH (x:Entity)-[r]->(p)
    CREATE (x)-[moved:$(type(r))]->(target)
    SET moved = properties(r)
    DELETE r
  }
  CALL (p, target) {
    MATCH (f:Fact)-[a:ABOUT]->(p)
    CREATE (f)-[moved:ABOUT]->(target)
    SET moved = properties(a),
        f.head_key = CASE WHEN f.head_key = p.key THEN target.key ELSE f.head_key END,
        f.tail_key = CASE WHEN f.tail_key = p.key THEN target.key ELSE f.tail_key END,
        f.entity_keys = reduce(acc = [], k IN [k IN f.entity_keys |
          CASE WHEN k = p.key THEN target.key ELSE k END] |
          CASE WHEN k IN acc THEN acc ELSE acc + k END)
    DELETE a
  }
  DETACH DELETE p
}
RETURN placeholder, target.key AS target
