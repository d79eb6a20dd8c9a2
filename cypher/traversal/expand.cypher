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
    WHERE r.fact_id IS NOT NULL
      AND ($as_of IS NOT NULL OR $valid_at IS NOT NULL OR r.status = 'ACTIVE')
      AND ($as_of IS NULL OR (r.held_from <= $as_of
                              AND (r.retired_at IS NULL OR r.retired_at > $as_of)))
      AND ($valid_at IS NULL OR ((r.held_from IS NOT NULL OR r.archived = true)
                                 AND r.status <> 'FLAGGED_CONFLICT'
                                 AND coalesce(r.valid_from <= $valid_at, true)
                                 AND (r.valid_to IS NULL OR r.valid_to > $valid_at)))
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
