// The relation labels a space has learned (snake_case keys: `works_at`), from which the
// path search knows which incoming relation types it may ask an entity for.
MATCH (s:Space {key: $space})
RETURN coalesce(s.relation_labels, []) AS labels
