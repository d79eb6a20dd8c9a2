// Export: every fact of a space in recording order (its slot and value break ties between
// facts of one write), with every stored property an export carries (never the embedding,
// the vector sequence or text derived from the value) and its links with the instant each
// was made. Times travel as ISO text.
MATCH (f:Fact {space: $space})
WITH f,
     COLLECT { MATCH (f)-[r:SUPERSEDES]->(o:Fact) RETURN {id: o.id, at: toString(r.at)} }
       AS supersedes,
     COLLECT { MATCH (f)-[r:RETRACTS]->(o:Fact) RETURN {id: o.id, at: toString(r.at)} }
       AS retracts
RETURN f {.id, .subject, .scope, .value, .status, .kind, .time_ref, .confidence, .source,
          .source_ref, .raw, .metadata, .category, .head, .relation, .tail, .head_type,
          .tail_type, .head_key, .tail_key, .cardinality, .action, .proposed_action,
          .archived, .coexist, .message_key, .revisions,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          held_from: toString(f.held_from), recorded_at: toString(f.recorded_at),
          retired_at: toString(f.retired_at), refined_at: toString(f.refined_at),
          supersedes: supersedes, retracts: retracts} AS fact
ORDER BY f.recorded_at, f.subject, f.scope, f.value, f.id
