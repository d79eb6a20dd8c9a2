// The pool's facts in critical categories (through the category index), up to $cap: the
// caller fails when the cap is reached rather than truncate.
MATCH (f:Fact {space: $space})
WHERE f.category IN $categories AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
  AND ($valid_at IS NULL OR ((f.archived = true OR (f.held_from IS NOT NULL
                               AND ($at IS NULL OR f.held_from <= $at)))
                              AND f.status <> 'FLAGGED_CONFLICT'
                              AND coalesce(f.valid_from <= $valid_at, true)
                              AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
WITH f LIMIT $cap
RETURN f.id AS id
ORDER BY f.recorded_at, id
