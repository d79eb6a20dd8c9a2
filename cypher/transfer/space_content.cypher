// Whether a space holds memory (facts, conflicts, entities): restore writes only into an
// empty one.
CALL () {
  MATCH (f:Fact {space: $space}) RETURN count(f) AS facts
}
CALL () {
  MATCH (c:Conflict {space: $space}) RETURN count(c) AS conflicts
}
CALL () {
  MATCH (e:Entity {space: $space}) RETURN count(e) AS entities
}
RETURN facts + conflicts + entities AS nodes
