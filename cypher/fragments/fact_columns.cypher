// The columns of a Fact node that row_to_fact reads, as the body of a map projection over
// `f`; statements splice it in with @include (graph/statements.py) and may add computed
// keys after it (supersedes_ids, retracts_ids). Times travel as ISO text, a third of the decoding cost of driver DateTimes. A
// fact that took its write's text reads it from the write's Message.
.id, .space, .subject, .value, .scope, .kind, .time_ref, .status, .confidence,
.source, .source_ref, .metadata,
raw: CASE WHEN f.message_id IS NULL THEN f.raw
          ELSE COLLECT { MATCH (m:Message {id: f.message_id}) RETURN m.text }[0] END, .category, .head, .relation, .tail,
.cardinality, .proposed_action, .revisions, .event, .undone_by,
valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
held_from: toString(f.held_from), valid_to_at: toString(f.valid_to_at)
