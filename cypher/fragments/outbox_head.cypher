// Where the outbox of the space `space_key` ends as a reader finds it: [seq, id] of its last
// entry in the (space, seq) index, or the floor pruning left ([floor, $max_id]), whichever is
// later. Never the Space node's write counter: Neo4j applies a committing transaction's
// property updates before its index updates, so for a moment the counter names a write whose
// entry the index does not find yet, and a reader placed after that write would skip it.
reduce(head = [coalesce(COLLECT {
         MATCH (f:OutboxFloor {space: space_key}) RETURN f.seq
       }[0], 0), $max_id], last IN COLLECT {
         MATCH (o:Outbox {space: space_key}) WHERE o.seq IS NOT NULL
         WITH o.seq AS top ORDER BY top DESC LIMIT 1
         MATCH (same:Outbox {space: space_key, seq: top})
         RETURN [top, same.id] AS last ORDER BY last DESC LIMIT 1
       } | CASE WHEN last > head THEN last ELSE head END)
