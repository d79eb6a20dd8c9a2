// Export: what a space node holds of the memory itself (its policy, the relation labels it
// learnt, its relation schema and the models' descriptions of its relations), and how many facts, conflicts and entities it holds. A composite index serves a
// space's conflicts (space, status) and entities (space, key) only when its second property
// is tested too (every conflict has a status, every entity a key); else a label scan of the
// whole database.
OPTIONAL MATCH (s:Space {key: $space})
CALL () {
  MATCH (f:Fact {space: $space}) RETURN count(f) AS facts
}
CALL () {
  MATCH (c:Conflict {space: $space}) WHERE c.status IS NOT NULL RETURN count(c) AS conflicts
}
CALL () {
  MATCH (e:Entity {space: $space}) WHERE e.key IS NOT NULL RETURN count(e) AS entities
}
RETURN s.policy AS policy, s.relation_labels AS relation_labels,
       s.relation_schema AS relation_schema, s.relation_descriptions AS relation_descriptions,
       facts, conflicts, entities
