// Restore: facts exactly as exported, with their status label, then their SUPERSEDES,
// RETRACTS and RESTORES links at their own instants. Times arrive as ISO text and become
// datetimes here (converting thousands of them in the driver would cost more than the write
// itself).
CALL () {
  UNWIND $facts AS row
  CREATE (f:Fact)
  SET f = row
  SET f.valid_from = datetime(row.valid_from), f.valid_to = datetime(row.valid_to),
      f.held_from = datetime(row.held_from), f.recorded_at = datetime(row.recorded_at),
      f.retired_at = datetime(row.retired_at), f.refined_at = datetime(row.refined_at),
      f.undone_at = datetime(row.undone_at)
  SET f:$(CASE f.status WHEN 'ACTIVE' THEN 'Active' WHEN 'FLAGGED_CONFLICT' THEN 'Flagged'
               WHEN 'SUPERSEDED' THEN 'Superseded' ELSE 'Historical' END)
  RETURN count(f) AS facts
}
CALL () {
  UNWIND $supersedes AS e
  MATCH (new:Fact {id: e.new}), (old:Fact {id: e.old})
  WHERE new.space = $space AND old.space = $space
  CREATE (new)-[:SUPERSEDES {at: datetime(e.at)}]->(old)
  RETURN count(*) AS supersedes
}
CALL () {
  UNWIND $retracts AS e
  MATCH (tomb:Fact {id: e.new}), (old:Fact {id: e.old})
  WHERE tomb.space = $space AND old.space = $space
  CREATE (tomb)-[:RETRACTS {at: datetime(e.at)}]->(old)
  RETURN count(*) AS retracts
}
CALL () {
  UNWIND $restores AS e
  MATCH (copy:Fact {id: e.new}), (old:Fact {id: e.old})
  WHERE copy.space = $space AND old.space = $space
  CREATE (copy)-[:RESTORES {at: datetime(e.at)}]->(old)
  RETURN count(*) AS restores
}
RETURN facts, supersedes, retracts, restores
