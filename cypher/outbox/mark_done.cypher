// Entries the mirror has applied.
UNWIND $ids AS id
MATCH (o:Outbox {id: id})
SET o.done = true, o.applied_at = $now
RETURN count(o) AS done
