// The facts behind projection edges, with their provenance. One row.
// Columns are the ones row_to_fact reads (never the embedding); times travel as ISO
// strings, which cost a third of driver DateTimes to decode.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN collect(f {.id, .space, .subject, .value, .scope, .kind, .time_ref, .status,
                  .confidence, .source, .source_ref, .raw, .metadata, .category, .head,
                  .relation, .tail, .cardinality, .proposed_action, .revisions,
                  valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
                  recorded_at: toString(f.recorded_at),
                  retired_at: toString(f.retired_at)}) AS facts
