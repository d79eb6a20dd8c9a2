// An outbox entry written by a transaction that already holds the space's lock (its Space
// node's write counter orders the entries of one space the way their transactions committed).
// $audit: the audited call's row (null outside one), appended when the entry is applied.
MATCH (s:Space {key: $space})
CREATE (o:Outbox {id: $id, space: $space, kind: $kind, payload: $payload, created_at: $now,
                  seq: s.writes, done: false, audit: $audit})
RETURN o.id AS id, o.seq AS seq
