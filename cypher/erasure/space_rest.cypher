// After every fact of a space is erased: its remaining conflicts, entities, messages and
// vectors, and the relation labels it learned. The Space node stays (its write counter orders the outbox).
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
CALL () {
  MATCH (v:FactVector)
  WHERE v.space = $space AND v.seq IS NOT NULL
  DELETE v
}
OPTIONAL MATCH (s:Space {key: $space})
REMOVE s.relation_labels
RETURN true AS done
