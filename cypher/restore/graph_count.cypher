// Restore refuses a graph that holds memory: facts, conflicts, entities or outbox entries
// (of one space, or of any when $space is null).
CALL () {
  MATCH (f:Fact) WHERE $space IS NULL OR f.space = $space RETURN count(f) AS facts
}
CALL () {
  MATCH (c:Conflict) WHERE $space IS NULL OR c.space = $space RETURN count(c) AS conflicts
}
CALL () {
  MATCH (e:Entity) WHERE $space IS NULL OR e.space = $space RETURN count(e) AS entities
}
CALL () {
  MATCH (o:Outbox) WHERE $space IS NULL OR o.space = $space RETURN count(o) AS outbox
}
RETURN facts + conflicts + entities + outbox AS nodes
