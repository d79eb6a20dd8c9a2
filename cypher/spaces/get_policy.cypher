OPTIONAL MATCH (s:Space {key: $space})
RETURN s.policy AS policy
