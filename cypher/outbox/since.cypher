// A space's outbox entries from (seq, id) on in commit order (that entry included: a cursor
// may stop inside an entry's events), at most $limit, and the floor
// below which pruning or an erasure removed applied entries from the graph (the mirror
// keeps them: the change feed reads them there when a cursor is older than the floor).
OPTIONAL MATCH (floor:OutboxFloor {space: $space})
RETURN coalesce(floor.seq, 0) AS floor,
       COLLECT {
         MATCH (o:Outbox {space: $space})
         WHERE o.seq >= $seq AND [o.seq, o.id] >= [$seq, $id]
         RETURN o {.id, .space, .kind, .payload, .seq, created_at: toString(o.created_at)}
           AS entry
         ORDER BY o.seq, o.id
         LIMIT $limit
       } AS entries
