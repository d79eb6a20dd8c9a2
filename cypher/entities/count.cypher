// How many entities entities/page's filter admits (the block between `filter` and
// `end filter`, kept equal by a test), counted where they lie.
MATCH (e:Entity {space: $space})
// filter
WHERE ($prefix IS NULL OR e.key STARTS WITH $prefix)
  AND ($as_of IS NULL OR e.created_at <= $as_of)
  AND ($search IS NULL OR e.norm CONTAINS $search OR EXISTS {
         MATCH (e)<-[a:ABOUT]-(f:Fact)
         WHERE toLower(CASE a.role WHEN 'head' THEN f.head ELSE f.tail END) CONTAINS $search })
  AND (($valid_at IS NULL AND $valid_start IS NULL AND $valid_end IS NULL) OR EXISTS {
         MATCH (e)<-[:ABOUT]-(f:Fact)
         WHERE (f.archived = true OR (f.held_from IS NOT NULL
                                      AND ($as_of IS NULL OR f.held_from <= $as_of)))
           AND ($as_of IS NULL OR f.recorded_at <= $as_of)
           AND ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                                      AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
           AND ($valid_start IS NULL OR f.valid_to IS NULL OR f.valid_to > $valid_start)
           AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true)) })
// end filter
RETURN count(*) AS total
