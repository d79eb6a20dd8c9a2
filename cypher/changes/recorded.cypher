// The facts whose place in memory changed in ($from, $to] on the recorded clock: those that
// became current (held_from), stopped being current (retired_at) or were refined in place
// (refined_at: the last refinement, so one made since $from; $now, which the caller sets
// past any refinement, closes that range) in the window, each found by a range seek of the
// index on its time (hinted as a seek: the planner would otherwise take the space's index,
// or scan this one, and filter), so the cost follows the changes, not the space. The caller
// compares each slot as it stood at $from with how it stands at $to.
CALL () {
  MATCH (f:Fact {space: $space})
  USING INDEX SEEK f:Fact(space, held_from)
  WHERE f.held_from > $from AND f.held_from <= $to
  RETURN f
  UNION
  MATCH (f:Fact {space: $space})
  USING INDEX SEEK f:Fact(space, retired_at)
  WHERE f.retired_at > $from AND f.retired_at <= $to
  RETURN f
  UNION
  MATCH (f:Fact {space: $space})
  USING INDEX SEEK f:Fact(space, refined_at)
  WHERE f.refined_at > $from AND f.refined_at <= $now
  RETURN f
}
WITH f
WHERE f.held_from IS NOT NULL AND ($subject IS NULL OR f.subject = $subject)
RETURN f {@include(fragments/fact_columns), .event, .held_event, .retired_event,
          .refined_event, refined_at: toString(f.refined_at)} AS fact
