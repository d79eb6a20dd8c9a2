// One step of a path pattern (recall_related with `path`): from each frontier entity, the
// projection edges of one relation type walked one way ($forward: from the head), that are
// current, or that memory held at $as_of, or that were true in the world at $valid_at; at
// most $cap per entity. The type was checked against the safe alphabet and is compared,
// never spliced into the query.
UNWIND $frontier AS key
MATCH (e:Entity {space: $space, key: key})
CALL (e) {
  MATCH (e)-[r]->(n:Entity)
  WHERE $forward AND type(r) = $type AND @include(fragments/edge_held)
  RETURN r, n
  UNION ALL
  MATCH (e)<-[r]-(n:Entity)
  WHERE NOT $forward AND type(r) = $type AND @include(fragments/edge_held)
  RETURN r, n
}
WITH e, r, n ORDER BY n.key
WITH e, collect({edge: r {.fact_id, .relation, .status, .confidence},
                 other: n {.key, .type, .name}})[..$cap] AS edges
RETURN e {.key, .type, .name} AS entity, edges
