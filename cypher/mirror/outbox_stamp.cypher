// The outbox entries this transaction created in the space (its pending entries at the
// current write counter), given the audited call's row where they carry none ($audit may be
// null): the row survives a crash after the commit, and whoever applies an entry appends it
// to the audit chain. Returned whole, so the writer's process can apply them without
// reading the outbox again.
MATCH (s:Space {key: $space})
MATCH (o:Outbox)
WHERE o.done = false AND o.space = $space AND o.seq = s.writes
SET o.audit = coalesce(o.audit, $audit)
RETURN o.id AS id, o.space AS space, o.kind AS kind, o.payload AS payload,
       o.created_at AS created_at, o.seq AS seq, o.audit AS audit
