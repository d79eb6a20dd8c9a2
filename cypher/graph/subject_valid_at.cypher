// What was true in the world at $at for one subject, through the (space, subject) index:
// valid_from <= $at < valid_to over held and archived facts. Times travel as ISO strings.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE (f.held_from IS NOT NULL OR f.archived = true)
  AND f.status <> 'FLAGGED_CONFLICT'
  AND coalesce(f.valid_from <= $at, true) AND (f.valid_to IS NULL OR f.valid_to > $at)
RETURN f {.*, valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          held_from: toString(f.held_from), recorded_at: toString(f.recorded_at),
          retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
