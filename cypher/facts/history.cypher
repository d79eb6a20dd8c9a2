// Every fact of a subject (optionally one scope), with the edges that chain them.
// Columns are the ones row_to_fact reads (never the embedding); times travel as ISO
// strings, which cost a third of driver DateTimes to decode.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE $scope IS NULL OR f.scope = $scope
RETURN f {.id, .space, .subject, .value, .scope, .kind, .time_ref, .status, .confidence,
          .source, .source_ref, .raw, .metadata, .category, .head, .relation, .tail,
          .cardinality, .proposed_action, .revisions,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
