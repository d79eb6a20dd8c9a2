// How many of these fact and conflict ids the graph already holds (in any space).
CALL () {
  UNWIND $ids AS id
  MATCH (f:Fact {id: id})
  RETURN count(f) AS facts
}
CALL () {
  UNWIND $ids AS id
  MATCH (c:Conflict {id: id})
  RETURN count(c) AS conflicts
}
RETURN facts + conflicts AS taken
