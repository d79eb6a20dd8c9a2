// Every fact of a subject (optionally one scope), with the edges that chain them.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE $scope IS NULL OR f.scope = $scope
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
