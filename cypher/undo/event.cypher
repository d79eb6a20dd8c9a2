// One event of a space as its outbox entry holds it (applied entries are kept for
// GRAPHMEM_OUTBOX_KEEP_SECONDS; after that the mirror's event log has it).
MATCH (o:Outbox {id: $id})
WHERE o.space = $space
RETURN o.kind AS kind, o.payload AS payload, o.audit AS audit,
       toString(o.created_at) AS created_at
