// The facts that began or stopped holding in the world in ($from, $to] (valid_from,
// valid_to), as memory knows it now: held and archived facts, never a tombstone, a flagged
// proposal or a rejected one (as facts/valid_at reads them). Each is found by a range seek of
// the index on its time (hinted as a seek, as in changes/recorded), so the cost follows the
// changes, not the space.
CALL () {
  MATCH (f:Fact {space: $space})
  USING INDEX SEEK f:Fact(space, valid_from)
  WHERE f.valid_from > $from AND f.valid_from <= $to
  RETURN f
  UNION
  MATCH (f:Fact {space: $space})
  USING INDEX SEEK f:Fact(space, valid_to)
  WHERE f.valid_to > $from AND f.valid_to <= $to
  RETURN f
}
WITH f
WHERE (f.held_from IS NOT NULL OR f.archived = true) AND f.status <> 'FLAGGED_CONFLICT'
  AND ($subject IS NULL OR f.subject = $subject)
RETURN f {@include(fragments/fact_columns), .event, .held_event, .retired_event,
          .refined_event, refined_at: toString(f.refined_at)} AS fact
