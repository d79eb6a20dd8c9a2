// Facts of a space with search text but no stored vector: the embedder was down when they
// were written, or the process stopped before its background embedding ran. A background
// sweep, once per space per process; not on any request's path.
MATCH (f:Fact)
USING INDEX f:Fact(space)
WHERE f.space = $space AND f.search_text IS NOT NULL
  AND NOT EXISTS { MATCH (:FactVector {fact_id: f.id}) }
RETURN f.id AS id
LIMIT $limit
