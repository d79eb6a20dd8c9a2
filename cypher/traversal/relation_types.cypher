// The relation labels a space has learned (snake_case keys: `works_at`), from which the
// path search knows which incoming relation types it may ask an entity for, with the
// space's declared relation schema and the models' descriptions of its relations (JSON).
MATCH (s:Space {key: $space})
RETURN coalesce(s.relation_labels, []) AS labels, s.relation_schema AS schema,
       s.relation_descriptions AS described
