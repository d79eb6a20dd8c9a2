// How many facts the recall pool holds, counted only up to $cap: small pools skip ranking.
// The pool: $statuses now, or (with $at) what memory held at $at, plus retired facts
// recorded by then when $history is true.
MATCH (f:Fact {space: $space})
WHERE f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
WITH f LIMIT $cap
RETURN count(f) AS n
