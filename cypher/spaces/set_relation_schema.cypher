// The space's declared relation schema, stored as JSON on its Space node (a version inside).
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.relation_schema = $schema
RETURN s.relation_schema AS schema
