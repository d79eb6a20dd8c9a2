// Approximate nearest neighbours over every space, then this space's pool: $k oversamples
// so that enough of the global top-k belong here; the caller falls back to vector_exact.
CALL db.index.vector.queryNodes('fact_embedding', $k, $vector) YIELD node AS f, score
WHERE f.space = $space AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
RETURN f.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
