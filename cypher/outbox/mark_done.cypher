// Entries the mirror has applied. An entry already done keeps its first `applied_at`: two
// processes may both apply an entry (applying is idempotent) and mark it, and a later mark
// must not make it look freshly applied to the pruning that counts from that time.
UNWIND $ids AS id
MATCH (o:Outbox {id: id})
WHERE o.done = false
SET o.done = true, o.applied_at = $now
RETURN count(o) AS done
