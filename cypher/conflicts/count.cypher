// How many conflicts conflicts/page's filter admits (the block between `filter` and
// `end filter`, kept equal by a test), counted where they lie.
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
RETURN count(*) AS total
