// Restore: what the space node holds of the memory (its policy, its relation labels).
MATCH (s:Space {key: $space})
SET s.policy = $policy, s.relation_labels = $labels
RETURN s.key AS space
