// fsck: SUPERSEDED facts that nothing supersedes or retracts and no undo retired.
MATCH (f:Fact {space: $space, status: 'SUPERSEDED'})
WHERE f.undone_by IS NULL AND NOT EXISTS { MATCH (f)<-[:SUPERSEDES|RETRACTS]-(:Fact) }
RETURN f.id AS id, f.subject AS subject, f.value AS value
ORDER BY f.recorded_at, f.id
LIMIT $limit
