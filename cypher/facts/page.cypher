// A page of a space's facts in recording order, (recorded_at, id), after $after, under every
// filter of the facts read; facts/page_back reads backwards from $before. The seek on the
// (space, recorded_at) index hands the facts over in that order, so a page reads about as
// many facts as it returns (plus those the filters drop), however large the space. The block
// between `filter` and `end filter` is facts/count's too (a test keeps them equal).
// $as_of: memory as it stood then: the facts recorded by then, each with the status it had
// (retired by then: its retired status; held from before then: ACTIVE; else FLAGGED_CONFLICT).
// World time: $valid_at inside [valid_from, valid_to), or the validity overlapping
// [$valid_start, $valid_end); a fact whose validity a retirement closed after $as_of
// (valid_to_at; before it was recorded, valid_to equal to retired_at) was open-ended then.
// $believed keeps what memory held or archived (never a tombstone, a proposal or a rejected
// one); $pending keeps the proposals of a confirm-gate conflict open then. Columns are the
// ones row_to_fact reads (never the search text), with held_from and valid_to_at for as_it_stood.
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, recorded_at)
WHERE f.recorded_at >= coalesce($after[0], datetime('0001-01-01T00:00:00Z')) AND NOT $backward
WITH f
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
  AND ($after IS NULL OR [f.recorded_at, f.id] > $after)
  AND ($before IS NULL OR [f.recorded_at, f.id] < $before)
WITH f
ORDER BY f.space, f.recorded_at, f.id
LIMIT $limit
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
