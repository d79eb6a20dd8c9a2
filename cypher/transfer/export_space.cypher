// Export: what a space node holds of the memory itself (its policy, the relation labels it
// learnt), and how many facts, conflicts and entities it holds.
OPTIONAL MATCH (s:Space {key: $space})
CALL () {
  MATCH (f:Fact {space: $space}) RETURN count(f) AS facts
}
CALL () {
  MATCH (c:Conflict {space: $space}) RETURN count(c) AS conflicts
}
CALL () {
  MATCH (e:Entity {space: $space}) RETURN count(e) AS entities
}
RETURN s.policy AS policy, s.relation_labels AS relation_labels, facts, conflicts, entities
