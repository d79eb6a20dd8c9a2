// Open a conflict per (slot, kind) of this write, or join the open one already there; a
// backfilled write's conflict opens at its own instant (`at`).
UNWIND $rows AS row
OPTIONAL MATCH (existing:Conflict {space: $space, subject: row.subject, scope: row.scope,
                                   kind: row.kind, status: 'open'})
WITH row, head(collect(existing)) AS existing
CALL (row, existing) {
  WITH row, existing WHERE existing IS NULL
  CREATE (c:Conflict {id: row.id, space: $space, subject: row.subject, scope: row.scope,
                      kind: row.kind, severity: row.severity, note: row.note,
                      status: 'open', created_at: coalesce(row.at, $now)})
  RETURN c
  UNION
  WITH row, existing WHERE existing IS NOT NULL
  RETURN existing AS c
}
WITH row, c
CALL (row, c) {
  UNWIND row.fact_ids AS fid
  MATCH (f:Fact {id: fid})
  WHERE f.space = $space
  MERGE (c)-[:INVOLVES]->(f)
}
RETURN row.flagged AS flagged, c.id AS conflict_id
