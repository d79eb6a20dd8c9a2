// What each relation of a space was written with: of each snake_case key in $labels, up to
// $sample of its facts' label, subject, the names and types written for their ends, and the
// text they came from (their own raw, or the message they name).
UNWIND $labels AS label
CALL (label) {
  MATCH (f:Fact {space: $space, rel_key: label})
  WITH f LIMIT $sample
  RETURN collect(f {.relation, .subject, .head, .tail, .head_type, .tail_type,
                    text: CASE WHEN f.raw IS NOT NULL AND f.raw <> '' THEN f.raw
                          ELSE COLLECT { MATCH (m:Message {id: f.message_id})
                                         RETURN m.text }[0] END}) AS facts
}
RETURN label, facts
