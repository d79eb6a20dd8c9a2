// Every ABOUT edge and projection edge of a space, to compare a rebuilt graph with the original.
CALL () {
  MATCH (f:Fact {space: $space})-[a:ABOUT]->(e:Entity)
  RETURN collect([f.id, a.role, e.key]) AS about
}
CALL () {
  MATCH (h:Entity {space: $space})-[r]->(t:Entity)
  WHERE r.fact_id IS NOT NULL
  RETURN collect({type: type(r), head: h.key, tail: t.key, props: properties(r)}) AS edges
}
RETURN about, edges
