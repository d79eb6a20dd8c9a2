// A page of the space's hot fact vectors stored after sequence number $seq, in order.
MATCH (v:FactVector)
WHERE v.space = $space AND v.seq > $seq
MATCH (f:Fact {id: v.fact_id})
WHERE f.status IN $statuses
RETURN f.id AS id, v.embedding AS vector, v.seq AS seq
ORDER BY v.seq
LIMIT $limit
