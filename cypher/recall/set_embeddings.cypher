// Store each fact's search text and, when one was computed, its vector (as a float vector
// property, which the fact_embedding index picks up).
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
WHERE f.space = $space
SET f.search_text = row.text
WITH f, row
WHERE row.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
RETURN count(f) AS embedded
