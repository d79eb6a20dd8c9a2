// Where a new subscriber starts: the space's write counter, and the entries committed up to
// it that were created at or after $at (a write that began once the subscription was made
// is delivered even if it committed before the subscriber read this).
OPTIONAL MATCH (s:Space {key: $space})
WITH coalesce(s.writes, 0) AS writes
RETURN writes,
       COLLECT {
         MATCH (o:Outbox {space: $space})
         WHERE o.created_at >= $at AND o.seq <= writes
         RETURN o {.id, .space, .kind, .payload, .seq, created_at: toString(o.created_at)}
           AS entry
         ORDER BY o.seq, o.id
         LIMIT $limit
       } AS entries
