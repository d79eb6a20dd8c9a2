// The recall pool, up to $cap facts (the caller asks for one more than it would take whole,
// so a larger pool costs no scan), oldest first, without vectors. The pool: $statuses now,
// or (with $at) what memory held at $at, plus retired facts recorded by then when $history.
MATCH (f:Fact {space: $space})
WHERE f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
WITH f LIMIT $cap
RETURN f {.*, embedding: null,
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
