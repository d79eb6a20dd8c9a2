// The change feed's poll, for every space someone follows: the space's write counter and
// the outbox entries committed after the tail's position (seq, id), in commit order, at
// most $limit each. A tail with no position yet gets only the counter (where it starts).
UNWIND $tails AS t
OPTIONAL MATCH (s:Space {key: t.space})
RETURN t.space AS space, coalesce(s.writes, 0) AS writes,
       COLLECT {
         MATCH (o:Outbox {space: t.space})
         WHERE t.seq IS NOT NULL AND o.seq >= t.seq AND [o.seq, o.id] > [t.seq, t.id]
         RETURN o {.id, .space, .kind, .payload, .seq, created_at: toString(o.created_at)}
           AS entry
         ORDER BY o.seq, o.id
         LIMIT $limit
       } AS entries
