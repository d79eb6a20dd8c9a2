// How many facts the recall pool holds, counted only up to $cap: small pools skip ranking.
// The pool: $statuses now, or (with $at) what memory held at $at, plus retired facts
// recorded by then when $history is true; with $valid_at only what memory held (or archived)
// that was true in the world then.
MATCH (f:Fact {space: $space})
WHERE f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
  AND ($valid_at IS NULL OR ((f.archived = true OR (f.held_from IS NOT NULL
                               AND ($at IS NULL OR f.held_from <= $at)))
                              AND f.status <> 'FLAGGED_CONFLICT'
                              AND coalesce(f.valid_from <= $valid_at, true)
                              AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
WITH f LIMIT $cap
RETURN count(f) AS n
