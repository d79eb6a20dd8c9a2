// A page of the space's hot fact vectors stored after sequence number $seq, in order.
MATCH (f:Fact {space: $space})
WHERE f.vector_seq > $seq AND f.status IN $statuses
RETURN f.id AS id, f.embedding AS vector, f.vector_seq AS seq
ORDER BY f.vector_seq
LIMIT $limit
