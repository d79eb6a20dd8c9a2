// An erasure's outbox cleanup: applied entries of the space go (the mirror holds them and
// rewrites its copy; the space's floor records how far, for the change feed); pending ones
// are returned to be rewritten without the erased facts.
CALL () {
  MATCH (o:Outbox)
  WHERE o.done = true AND o.space = $space
  WITH collect(o) AS gone, max(o.seq) AS top
  CALL (gone) {
    UNWIND gone AS o
    DELETE o
  }
  CALL (top) {
    WITH top WHERE top IS NOT NULL
    MERGE (floor:OutboxFloor {space: $space})
    SET floor.seq = CASE WHEN floor.seq IS NULL OR floor.seq < top THEN top ELSE floor.seq END
  }
}
MATCH (o:Outbox)
WHERE o.done = false AND o.space = $space
RETURN o.id AS id, o.kind AS kind, o.payload AS payload
