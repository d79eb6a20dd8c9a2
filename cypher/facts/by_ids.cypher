// Facts of a space by id, in one round trip (what a request's DataLoader batches); with
// $as_of only those recorded by then. Columns are the ones row_to_fact reads, with held_from
// for the status a fact had at $as_of.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space AND ($as_of IS NULL OR f.recorded_at <= $as_of)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
