// A process using a space claims it for its relational store (first claim wins), so only
// drainers of that store apply the space's outbox entries: deployments (or tests) that share
// one Neo4j but keep separate relational stores never take one another's entries.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.mirror = coalesce(s.mirror, $store)
RETURN s.mirror AS store
