// Restore: conflicts with their outcome (status, winner, note, who, when), and the facts
// they involve.
UNWIND $rows AS row
CREATE (c:Conflict)
SET c = row.props
WITH c, row
CALL (c, row) {
  UNWIND row.fact_ids AS fid
  MATCH (f:Fact {id: fid})
  WHERE f.space = $space
  MERGE (c)-[:INVOLVES]->(f)
}
RETURN count(c) AS conflicts
