// Where a new subscriber starts: where the outbox ends as the index shows it (`head`, see the
// fragment), and the entries up to it that were created at or after $at (a write that began
// once the subscription was made is delivered even if it committed before this read).
WITH $space AS space_key
WITH @include(fragments/outbox_head) AS head
RETURN head,
       COLLECT {
         MATCH (o:Outbox {space: $space})
         WHERE o.created_at >= $at AND o.seq <= head[0] AND [o.seq, o.id] <= head
         RETURN o {.id, .space, .kind, .payload, .seq, created_at: toString(o.created_at)}
           AS entry
         ORDER BY o.seq, o.id
         LIMIT $limit
       } AS entries
