// The supersession chain of one attribute (relation or subject) of an entity, oldest first.
// Columns are the ones row_to_fact reads (never the embedding); times travel as ISO
// strings, which cost a third of driver DateTimes to decode.
MATCH (e:Entity {space: $space, key: $key})<-[:ABOUT {role: 'head'}]-(f:Fact)
WHERE f.rel_key = $attribute OR f.subject = $attribute
RETURN f {.id, .space, .subject, .value, .scope, .kind, .time_ref, .status, .confidence,
          .source, .source_ref, .raw, .metadata, .category, .head, .relation, .tail,
          .cardinality, .proposed_action, .revisions,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
