// Known entities (seeded ones first) and the relation labels in use, for the extractor.
CALL () {
  MATCH (e:Entity {space: $space})
  WHERE NOT e.key STARTS WITH 'unknown:'
  WITH e ORDER BY coalesce(e.seeded, false) DESC, e.created_at, e.key
  LIMIT $limit
  RETURN collect(e {.*}) AS entities
}
OPTIONAL MATCH (s:Space {key: $space})
RETURN entities, s.relation_labels AS relations
