// Export, step 1: every fact of a space with when it was recorded and the facts it retired
// (SUPERSEDES / RETRACTS), so the export can list each fact after the facts it points at;
// its slot and value break ties between facts recorded at one instant.
MATCH (f:Fact {space: $space})
RETURN f.id AS id, toString(f.recorded_at) AS recorded_at, f.subject AS subject,
       f.scope AS scope, f.value AS value,
       COLLECT { MATCH (f)-[:SUPERSEDES|RETRACTS]->(o:Fact) RETURN o.id } AS targets
