// Hard erasure: the facts and every relationship they have (DETACH), their vectors, the text
// of the writes they were stored from (it may hold their values: the write's other facts then
// keep no raw text), the projection edges carrying their ids, entities nothing refers to any
// more, and conflicts left with no fact. The space's VectorSeq node is locked first, as
// storing vectors locks it first: a vector stored meanwhile is found and deleted here, or its
// transaction finds the fact gone.
CALL () {
  MERGE (s:VectorSeq {space: $space})
  SET s.erasures = coalesce(s.erasures, 0) + 1
}
CALL () {
  UNWIND $ids AS id
  MATCH (v:FactVector {fact_id: id})
  WHERE v.space = $space
  DELETE v
}
CALL () {
  UNWIND $ids AS id
  OPTIONAL MATCH (c:Conflict)-[:INVOLVES]->(:Fact {id: id})
  WHERE c.space = $space
  RETURN collect(DISTINCT c) AS touched
}
CALL () {
  UNWIND $ids AS id
  OPTIONAL MATCH (:Fact {id: id})-[:ABOUT]->(e:Entity)
  RETURN collect(DISTINCT e) AS entities
}
CALL () {
  MATCH (:Entity {space: $space})-[r]->(:Entity)
  WHERE r.fact_id IN $ids
  DELETE r
}
CALL () {
  UNWIND $ids AS id
  MATCH (f:Fact {id: id})
  WHERE f.space = $space AND f.message_id IS NOT NULL
  MATCH (m:Message {id: f.message_id})
  WITH DISTINCT m
  DELETE m
}
CALL () {
  UNWIND $ids AS id
  MATCH (f:Fact {id: id})
  WHERE f.space = $space
  DETACH DELETE f
  RETURN count(*) AS facts
}
CALL (touched) {
  UNWIND touched AS c
  WITH c, c.id AS cid
  WHERE NOT (c)-[:INVOLVES]->()
  DETACH DELETE c
  RETURN collect(cid) AS conflicts
}
CALL (entities) {
  UNWIND entities AS e
  WITH e
  WHERE NOT (e)--()
  DELETE e
  RETURN count(*) AS orphans
}
RETURN facts, conflicts, orphans
