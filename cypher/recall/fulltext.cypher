// Full-text (English analyzer) over `search_text`; hits stream in descending score, so the
// space filter runs before the limit and other spaces never crowd this one out.
CALL db.index.fulltext.queryNodes('fact_search', $query) YIELD node AS f, score
WHERE f.space = $space AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
  AND ($valid_at IS NULL OR ((f.archived = true OR (f.held_from IS NOT NULL
                               AND ($at IS NULL OR f.held_from <= $at)))
                              AND f.status <> 'FLAGGED_CONFLICT'
                              AND coalesce(f.valid_from <= $valid_at, true)
                              AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
WITH f, score LIMIT $limit
RETURN f.id AS id, score
