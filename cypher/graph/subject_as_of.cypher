// What memory held as current at $at for one subject, through the (space, subject) index:
// held_from <= $at < retired_at. Times travel as ISO strings.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)
RETURN f {.*, valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          held_from: toString(f.held_from), recorded_at: toString(f.recorded_at),
          retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
