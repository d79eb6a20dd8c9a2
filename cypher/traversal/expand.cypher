// One hop of recall_related: the projection edges around the frontier entities that are
// current (or that memory held at $as_of, or that were true in the world at $valid_at), at
// most $fanout per entity and $budget in all, so a hub cannot blow the query up. One row
// (a record per edge costs more in the driver than the query), and no times: the facts
// behind the kept edges carry them. With $starts, the frontier entities found come back
// too, so the first hop from given keys is also their lookup (one round trip less).
UNWIND $frontier AS key
MATCH (e:Entity {space: $space, key: key})
WITH collect(e) AS found
CALL (found) {
  UNWIND found AS e
  CALL (e) {
    MATCH (e)-[r:!ABOUT]-(n:Entity)
    WHERE @include(fragments/edge_held)
    RETURN r, n
    LIMIT $fanout
  }
  WITH e, r, n
  LIMIT $budget
  RETURN collect({key: e.key, type: type(r), outgoing: startNode(r) = e,
                  edge: r {.fact_id, .relation, .status, .confidence},
                  other: n {.key, .type, .name}}) AS rows
}
RETURN rows,
       CASE WHEN $starts
         THEN [e IN found | e {.key, .type, .name, created_at: toString(e.created_at)}]
         ELSE [] END AS starts
