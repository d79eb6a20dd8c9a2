// The chosen facts by id, in the order given; times as ISO strings
// (the driver's DateTime decoding would cost more than the query).
UNWIND range(0, size($ids) - 1) AS i
MATCH (f:Fact {id: $ids[i]})
USING INDEX f:Fact(id)
WHERE f.space = $space
RETURN i, f {.*,
             valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
             recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
             held_from: toString(f.held_from), refined_at: toString(f.refined_at),
             supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
             retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY i
