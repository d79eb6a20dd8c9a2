// fsck: stored vectors of the space whose fact is gone or lives in another space (a vector
// must never outlive the erasure of its fact).
MATCH (v:FactVector)
WHERE v.space = $space AND v.seq IS NOT NULL
OPTIONAL MATCH (f:Fact {id: v.fact_id})
WITH v, f
WHERE f IS NULL OR f.space <> $space
RETURN v.fact_id AS id, f.space AS other
ORDER BY id
LIMIT $limit
