// Rebuild, step 1: drop up to $limit ABOUT edges of the space.
MATCH (:Entity {space: $space})<-[a:ABOUT]-(:Fact)
WITH a LIMIT $limit
DELETE a
RETURN count(*) AS deleted
