// New payloads for pending outbox entries (an erasure took facts out of them).
UNWIND $rows AS row
MATCH (o:Outbox {id: row.id})
SET o.payload = row.payload
RETURN count(o) AS rewritten
