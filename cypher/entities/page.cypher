// A page of a space's entities in key order: after $after, or reading backwards the ones
// just before $before. The block between `filter` and `end filter` is entities/count's too
// (a test keeps them equal). $prefix: one type (`person:`); $search: a part of the
// normalised name, or of a spelling a fact used for the entity (its head or tail as
// written); $as_of: entities created by then; world time: entities a fact memory held was
// about while true at $valid_at (or at some point of [$valid_start, $valid_end)).
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
  AND ($after IS NULL OR [e.key] > $after)
  AND ($before IS NULL OR [e.key] < $before)
WITH e
ORDER BY CASE WHEN $backward THEN null ELSE e.key END,
         CASE WHEN $backward THEN e.key END DESC
LIMIT $limit
RETURN e {.key, .type, .name, created_at: toString(e.created_at)} AS entity
