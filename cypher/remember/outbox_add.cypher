// The change, recorded in the same transaction as the graph write, for the mirror to apply.
CREATE (o:Outbox {id: $id, space: $space, kind: $kind, payload: $payload,
                  created_at: $now, done: false})
RETURN o.id AS id
