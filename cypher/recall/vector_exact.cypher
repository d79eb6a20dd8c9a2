// Exact cosine over this space's pool: used when the shared index's top-k holds too few of
// this space's facts (a small space in a large database).
MATCH (v:FactVector)
WHERE v.space = $space AND v.seq IS NOT NULL
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
WHERE score IS NOT NULL
RETURN f.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
