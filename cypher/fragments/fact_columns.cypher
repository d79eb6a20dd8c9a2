// The columns of a Fact node that row_to_fact reads, as the body of a map projection over
// `f`; statements splice it in with @include (graph/statements.py) and may add computed
// keys after it (supersedes_ids, retracts_ids). Never `{.*}`: that would ship each fact's
// embedding. Times travel as ISO text, a third of the decoding cost of driver DateTimes.
.id, .space, .subject, .value, .scope, .kind, .time_ref, .status, .confidence,
.source, .source_ref, .raw, .metadata, .category, .head, .relation, .tail,
.cardinality, .proposed_action, .revisions,
valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
held_from: toString(f.held_from), valid_to_at: toString(f.valid_to_at)
