// A page of a space's conflicts in the order they opened, (created_at, id): after $after,
// or reading backwards the ones just before $before, with the ids of the facts each one
// involves. The block between `filter` and `end filter` is conflicts/count's too (a test
// keeps them equal). $as_of: conflicts opened by then, each with the status it had then
// (open until closed_at); world time: conflicts with a fact true then ($valid_at) or at some
// point of [$valid_start, $valid_end).
MATCH (c:Conflict {space: $space})
// filter
WHERE ($subject IS NULL OR c.subject = $subject)
  AND ($scope IS NULL OR c.scope = $scope)
  AND ($kinds IS NULL OR c.kind IN $kinds)
  AND ($as_of IS NULL OR c.created_at <= $as_of)
WITH c, CASE WHEN $as_of IS NOT NULL AND (c.closed_at IS NULL OR c.closed_at > $as_of)
             THEN 'open' ELSE c.status END AS status
WHERE ($status IS NULL OR status = $status)
  AND (($valid_at IS NULL AND $valid_start IS NULL AND $valid_end IS NULL) OR EXISTS {
         MATCH (c)-[:INVOLVES]->(f:Fact)
         WHERE ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                                      AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
           AND ($valid_start IS NULL OR f.valid_to IS NULL OR f.valid_to > $valid_start)
           AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true)) })
// end filter
  AND ($after IS NULL OR [c.created_at, c.id] > $after)
  AND ($before IS NULL OR [c.created_at, c.id] < $before)
WITH c, status
ORDER BY CASE WHEN $backward THEN null ELSE [c.created_at, c.id] END,
         CASE WHEN $backward THEN [c.created_at, c.id] END DESC
LIMIT $limit
RETURN c {.id, .space, .kind, .severity, .note, .subject, .scope, status: status,
          by: CASE WHEN status = 'open' THEN null ELSE c.by END,
          winner: CASE WHEN status = 'open' THEN null ELSE c.winner END,
          created_at: toString(c.created_at),
          closed_at: CASE WHEN status = 'open' THEN null ELSE toString(c.closed_at) END}
         AS conflict,
       COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) WHERE $as_of IS NULL OR f.recorded_at <= $as_of
                 RETURN f.id ORDER BY f.recorded_at, f.id }
         AS fact_ids
