// The change feed's poll, for every space someone follows: the outbox entries committed after
// the tail's position (seq, id), in commit order, at most $limit each. A tail with no
// position yet gets only where the outbox ends as the index shows it (`head`): it starts there.
UNWIND $tails AS t
WITH t, t.space AS space_key
RETURN t.space AS space,
       CASE WHEN t.seq IS NULL THEN @include(fragments/outbox_head) END AS head,
       COLLECT {
         MATCH (o:Outbox {space: t.space})
         WHERE t.seq IS NOT NULL AND o.seq >= t.seq AND [o.seq, o.id] > [t.seq, t.id]
         RETURN o {.id, .space, .kind, .payload, .seq, created_at: toString(o.created_at)}
           AS entry
         ORDER BY o.seq, o.id
         LIMIT $limit
       } AS entries
