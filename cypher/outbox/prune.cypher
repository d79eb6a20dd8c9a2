// Applied entries older than the keep period leave the graph (the mirror holds the event).
MATCH (o:Outbox)
WHERE o.done = true AND o.applied_at < $before
WITH o LIMIT $limit
DELETE o
RETURN count(*) AS pruned
