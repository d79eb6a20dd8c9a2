// A page of one attribute's timeline on an entity (the facts with the entity as head whose
// relation or subject is $attribute, optionally one scope), in recording order,
// (recorded_at, id). An entry is a fact or one of its refinements, so the keyset bounds are
// inclusive of the cursor's fact (its remaining entries follow); entities/history_count counts
// entries under the same filter (the block between `filter` and `end filter`, kept equal by
// a test). $as_of: facts recorded by then; world time as in facts/page, over what memory
// held or archived when $believed. Columns are the ones row_to_fact reads, with held_from.
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
  AND ($after IS NULL OR [f.recorded_at, f.id] >= $after)
  AND ($before IS NULL OR [f.recorded_at, f.id] <= $before)
WITH f
ORDER BY CASE WHEN $backward THEN null ELSE [f.recorded_at, f.id] END,
         CASE WHEN $backward THEN [f.recorded_at, f.id] END DESC
LIMIT $limit
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
