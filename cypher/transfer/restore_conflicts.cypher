// Restore: conflicts with their outcome (status, winner, note, who, when), and the facts
// they involve; times arrive as ISO text.
UNWIND $rows AS row
CREATE (c:Conflict)
SET c = row.props
SET c.created_at = datetime(row.props.created_at), c.closed_at = datetime(row.props.closed_at)
WITH c, row
CALL (c, row) {
  UNWIND row.fact_ids AS fid
  MATCH (f:Fact {id: fid})
  WHERE f.space = $space
  MERGE (c)-[:INVOLVES]->(f)
}
RETURN count(c) AS conflicts
