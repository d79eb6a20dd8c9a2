// The facts an undo retires, withdraws or voids are marked with it, and their validity is
// emptied (from = to), so no read of the world's time finds them: as memory now knows it,
// they never held. Runs before the undo's batch, whose status changes bring the projection's
// edges in step with these times.
UNWIND $undone AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
SET f.undone_by = $event, f.undone_at = $now,
    f.valid_from = coalesce(f.valid_from, f.valid_to, $now),
    f.valid_to = coalesce(f.valid_from, f.valid_to, $now)
