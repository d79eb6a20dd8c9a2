// fsck: facts with a head but no ABOUT edge, and relation facts (not tombstones or held
// removals) without their projection edge.
MATCH (f:Fact {space: $space})
WHERE f.head IS NOT NULL
WITH f, EXISTS { MATCH (f)-[:ABOUT]->(:Entity) } AS about,
     f.relation IS NOT NULL AND f.tail IS NOT NULL
       AND coalesce(f.action, '') <> 'RETRACT'
       AND coalesce(f.proposed_action, '') <> 'RETRACT' AS wants_edge
WHERE NOT about OR (wants_edge AND NOT EXISTS {
  MATCH (f)-[:ABOUT {role: 'head'}]->(h:Entity)-[r]->(t:Entity)<-[:ABOUT {role: 'tail'}]-(f)
  WHERE r.fact_id = f.id })
RETURN f.id AS id, f.subject AS subject, about
ORDER BY f.recorded_at, f.id
LIMIT $limit
