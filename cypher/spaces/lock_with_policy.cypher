// Takes the space's write lock for the rest of the transaction: every writer to one space
// updates this node first, so writers queue here across processes; other spaces don't wait.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.writes = coalesce(s.writes, 0) + 1
RETURN s.policy AS policy
