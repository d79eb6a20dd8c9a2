// The chosen facts by id, in the order given, without their vectors.
UNWIND range(0, size($ids) - 1) AS i
MATCH (f:Fact {id: $ids[i]})
WHERE f.space = $space
RETURN i, f {.*, embedding: null,
             supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
             retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY i
