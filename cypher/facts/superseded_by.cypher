// For each given fact, the fact that superseded it or the tombstone that retracted it (one
// at most: a fact is retired once), by $as_of when given; one round trip for a batch.
UNWIND $ids AS id
MATCH (old:Fact {id: id})<-[:SUPERSEDES|RETRACTS]-(f:Fact)
WHERE old.space = $space AND f.space = $space
  AND ($as_of IS NULL OR f.recorded_at <= $as_of)
WITH id, f
ORDER BY f.recorded_at, f.id
WITH id, head(collect(f)) AS f
RETURN id AS old,
       f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
