// How many facts, in every space, have search text but no stored vector yet: the embedding
// lag as the graph holds it (`graphmem doctor`). Counted up to $cap.
MATCH (f:Fact)
WHERE f.search_text IS NOT NULL AND NOT EXISTS { MATCH (:FactVector {fact_id: f.id}) }
WITH f LIMIT $cap
RETURN count(f) AS facts
