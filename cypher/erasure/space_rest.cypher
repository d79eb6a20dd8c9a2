// After every fact of a space is erased: its remaining conflicts, entities and messages, and
// the relation labels it learned. The Space node stays (its write counter orders the outbox).
CALL () {
  MATCH (c:Conflict {space: $space})
  DETACH DELETE c
}
CALL () {
  MATCH (e:Entity {space: $space})
  DETACH DELETE e
}
CALL () {
  MATCH (m:Message {space: $space})
  DELETE m
}
OPTIONAL MATCH (s:Space {key: $space})
REMOVE s.relation_labels
RETURN true AS done
