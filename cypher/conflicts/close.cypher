MATCH (c:Conflict {id: $id})
WHERE c.space = $space
SET c.status = $status, c.winner = $winner, c.note = coalesce($note, c.note), c.by = $by,
    c.closed_at = $now
RETURN c {.*} AS conflict
