// The pool's facts in critical categories (through the category index), up to $cap: the
// caller fails when the cap is reached rather than truncate.
MATCH (f:Fact {space: $space})
WHERE f.category IN $categories AND f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
WITH f LIMIT $cap
RETURN f.id AS id
ORDER BY f.recorded_at, id
