// How many entries an entity attribute's timeline has under entities/history_page's filter
// (the block between `filter` and `end filter`, kept equal by a test): each fact, and each
// refinement made by $as_of (a revision is JSON whose "at" is the instant it was replaced).
MATCH (:Entity {space: $space, key: $key})<-[:ABOUT {role: 'head'}]-(f:Fact)
// filter
WHERE (f.rel_key = $attribute OR f.subject = $attribute)
  AND ($scope IS NULL OR f.scope = $scope)
  AND ($as_of IS NULL OR f.recorded_at <= $as_of)
  AND (NOT $believed OR f.archived = true
       OR (f.held_from IS NOT NULL AND ($as_of IS NULL OR f.held_from <= $as_of)))
WITH f,
     CASE WHEN $as_of IS NOT NULL
               AND coalesce(f.valid_to_at, CASE WHEN f.valid_to = f.retired_at THEN f.retired_at END)
                   > $as_of
          THEN null ELSE f.valid_to END AS valid_to
WHERE ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                             AND (valid_to IS NULL OR valid_to > $valid_at)))
  AND ($valid_start IS NULL OR valid_to IS NULL OR valid_to > $valid_start)
  AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true))
// end filter
RETURN sum(1 + size([r IN coalesce(f.revisions, [])
                   WHERE $as_of IS NULL
                      OR datetime(split(split(r, '"at": "')[1], '"')[0]) <= $as_of])) AS total
