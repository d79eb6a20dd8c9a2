// Restore: what the space node holds of the memory (its policy, its relation labels, its
// relation schema and the models' descriptions of its relations).
MATCH (s:Space {key: $space})
SET s.policy = $policy, s.relation_labels = $labels, s.relation_schema = $schema,
    s.relation_descriptions = $described
RETURN s.key AS space
