// An erasure's outbox cleanup: applied entries of the space go (the mirror holds them and
// rewrites its copy); pending ones are returned to be rewritten without the erased facts.
CALL () {
  MATCH (o:Outbox)
  WHERE o.done = true AND o.space = $space
  DELETE o
}
MATCH (o:Outbox)
WHERE o.done = false AND o.space = $space
RETURN o.id AS id, o.kind AS kind, o.payload AS payload
