// An entry's payload corrected in the transaction that wrote it (the conflicts a write
// joined carry the joined conflict's id).
MATCH (o:Outbox {id: $id})
SET o.payload = $payload
RETURN o.id AS id
