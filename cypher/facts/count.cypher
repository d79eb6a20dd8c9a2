// How many facts the facts read's filter admits (facts/page's block between `filter` and
// `end filter`, which a test keeps equal), counted where they lie.
MATCH (f:Fact {space: $space})
// filter
WHERE ($subject IS NULL OR f.subject = $subject)
  AND ($scope IS NULL OR f.scope = $scope)
  AND ($source IS NULL OR f.source = $source)
  AND ($category IS NULL OR f.category = $category)
  AND ($kind IS NULL OR f.kind = $kind)
  AND ($text IS NULL OR toLower(f.value) CONTAINS $text OR toLower(f.subject) CONTAINS $text)
  AND ($as_of IS NULL OR f.recorded_at <= $as_of)
  AND (NOT $believed OR f.archived = true
       OR (f.held_from IS NOT NULL AND ($as_of IS NULL OR f.held_from <= $as_of)))
  AND (NOT $pending OR EXISTS {
         MATCH (c:Conflict {kind: 'pending'})-[:INVOLVES]->(f)
         WHERE c.space = $space
           AND CASE WHEN $as_of IS NULL THEN c.status = 'open'
                    ELSE c.created_at <= $as_of AND (c.closed_at IS NULL OR c.closed_at > $as_of)
               END })
WITH f,
     CASE WHEN $as_of IS NULL OR f.retired_at <= $as_of THEN f.status
          WHEN f.held_from <= $as_of THEN 'ACTIVE'
          ELSE 'FLAGGED_CONFLICT' END AS status,
     CASE WHEN $as_of IS NOT NULL
               AND coalesce(f.valid_to_at, CASE WHEN f.valid_to = f.retired_at THEN f.retired_at END)
                   > $as_of
          THEN null ELSE f.valid_to END AS valid_to
WHERE ($statuses IS NULL OR status IN $statuses)
  AND (NOT $believed OR status <> 'FLAGGED_CONFLICT')
  AND ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                             AND (valid_to IS NULL OR valid_to > $valid_at)))
  AND ($valid_start IS NULL OR valid_to IS NULL OR valid_to > $valid_start)
  AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true))
// end filter
RETURN count(*) AS total
