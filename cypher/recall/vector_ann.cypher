// Approximate nearest neighbours over every space, then this space's pool, rescored by
// exact cosine (the index quantizes): $k oversamples so that enough of the global top-k
// belong here. Used only when the space's vectors are not held in memory.
CALL db.index.vector.queryNodes('fact_vector', $k, $vector) YIELD node AS v
WITH v WHERE v.space = $space
MATCH (f:Fact {id: v.fact_id})
WHERE f.space = $space AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
  AND ($valid_at IS NULL OR ((f.archived = true OR (f.held_from IS NOT NULL
                               AND ($at IS NULL OR f.held_from <= $at)))
                              AND f.status <> 'FLAGGED_CONFLICT'
                              AND coalesce(f.valid_from <= $valid_at, true)
                              AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
WITH f, vector.similarity.cosine(v.embedding, $vector) AS score
RETURN f.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
