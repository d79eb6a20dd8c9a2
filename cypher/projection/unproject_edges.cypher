// Rebuild, step 2: drop up to $limit projection edges of the space (every edge between two
// entities carries the fact it came from).
MATCH (:Entity {space: $space})-[r]->(:Entity)
WHERE r.fact_id IS NOT NULL
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS deleted
