// The space's reconcile policy, stored as JSON on its Space node.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.policy = $policy
RETURN s.policy AS policy
