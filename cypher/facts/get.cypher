// One fact by id, with the open conflicts that involve it.
MATCH (f:Fact {id: $id})
WHERE f.space = $space
OPTIONAL MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact,
       collect(c {.*}) AS conflicts
