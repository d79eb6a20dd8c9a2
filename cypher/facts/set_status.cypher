// Status changes decided by an approval or a conflict resolution.
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
WHERE f.space = $space
SET f.status = row.status,
    f.held_from = CASE WHEN row.status = 'ACTIVE' THEN coalesce(f.held_from, $now) ELSE f.held_from END,
    f.retired_at = CASE WHEN row.status IN ['SUPERSEDED', 'HISTORICAL'] THEN $now ELSE f.retired_at END,
    f.coexist = coalesce(row.coexist, f.coexist)
RETURN count(f) AS changed
