// Full-text (English analyzer) over `search_text`; hits stream in descending score, so the
// space filter runs before the limit and other spaces never crowd this one out.
CALL db.index.fulltext.queryNodes('fact_search', $query) YIELD node AS f, score
WHERE f.space = $space AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
WITH f, score LIMIT $limit
RETURN f.id AS id, score
