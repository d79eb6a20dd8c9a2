// Outbox entries not yet applied to this store's mirror (of the given spaces, or of all when
// $spaces is null; never of a space another store claimed), each space's in commit order.
MATCH (o:Outbox)
WHERE o.done = false AND ($spaces IS NULL OR o.space IN $spaces)
OPTIONAL MATCH (s:Space {key: o.space})
WITH o, s
WHERE s.mirror IS NULL OR s.mirror = $store
RETURN o.id AS id, o.space AS space, o.kind AS kind, o.payload AS payload,
       o.created_at AS created_at, o.seq AS seq, o.audit AS audit
ORDER BY o.space, coalesce(o.seq, 0), o.created_at, o.id
LIMIT $limit
