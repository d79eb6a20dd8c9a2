// Applied entries older than the keep period leave the graph (the mirror holds the event);
// each space's floor records the last seq removed, so the change feed knows to read older
// ones from the mirror. `$spaces` limits it to those spaces (null: every space).
MATCH (o:Outbox)
WHERE o.done = true AND o.applied_at < $before AND ($spaces IS NULL OR o.space IN $spaces)
WITH o LIMIT $limit
WITH o.space AS space, max(o.seq) AS top, collect(o) AS gone
CALL (gone) {
  UNWIND gone AS o
  DELETE o
}
CALL (space, top) {
  WITH space, top WHERE top IS NOT NULL
  MERGE (floor:OutboxFloor {space: space})
  SET floor.seq = CASE WHEN floor.seq IS NULL OR floor.seq < top THEN top ELSE floor.seq END
}
RETURN sum(size(gone)) AS pruned
