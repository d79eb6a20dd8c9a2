// The space's write lock (the same Space node every writer of the space updates first).
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.writes = coalesce(s.writes, 0) + 1
RETURN s.key AS space
