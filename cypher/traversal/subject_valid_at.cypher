// What was true in the world at $at for one subject, through the (space, subject) index:
// valid_from <= $at < valid_to over held and archived facts.
// Columns are the ones row_to_fact reads (never the embedding); times travel as ISO
// strings, which cost a third of driver DateTimes to decode.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE (f.held_from IS NOT NULL OR f.archived = true)
  AND f.status <> 'FLAGGED_CONFLICT'
  AND coalesce(f.valid_from <= $at, true) AND (f.valid_to IS NULL OR f.valid_to > $at)
RETURN f {.id, .space, .subject, .value, .scope, .kind, .time_ref, .status, .confidence,
          .source, .source_ref, .raw, .metadata, .category, .head, .relation, .tail,
          .cardinality, .proposed_action, .revisions,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
