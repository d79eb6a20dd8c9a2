// entities/vocabulary at another time: $as_of keeps the entities created by then and the
// labels of facts recorded by then; world time keeps entities and labels of facts memory held
// (or archived) that were true at $valid_at (or at some point of [$valid_start, $valid_end)).
CALL () {
  MATCH (e:Entity {space: $space})
  WHERE NOT e.key STARTS WITH 'unknown:'
    AND ($as_of IS NULL OR e.created_at <= $as_of)
    AND (($valid_at IS NULL AND $valid_start IS NULL AND $valid_end IS NULL) OR EXISTS {
           MATCH (e)<-[:ABOUT]-(f:Fact)
           WHERE (f.archived = true OR (f.held_from IS NOT NULL
                                        AND ($as_of IS NULL OR f.held_from <= $as_of)))
             AND ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                                        AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
             AND ($valid_start IS NULL OR f.valid_to IS NULL OR f.valid_to > $valid_start)
             AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true)) })
  WITH e ORDER BY coalesce(e.seeded, false) DESC, e.created_at, e.key
  LIMIT $limit
  RETURN collect(e {.*}) AS entities
}
CALL () {
  OPTIONAL MATCH (f:Fact {space: $space})
  WHERE f.rel_key IS NOT NULL AND ($as_of IS NULL OR f.recorded_at <= $as_of)
    AND ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                               AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
    AND ($valid_start IS NULL OR f.valid_to IS NULL OR f.valid_to > $valid_start)
    AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true))
  WITH f.rel_key AS label, min(f.recorded_at) AS first
  ORDER BY first
  LIMIT $limit
  RETURN collect(label) AS relations
}
RETURN entities, relations
