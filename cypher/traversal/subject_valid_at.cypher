// What was true in the world at $at for one subject, through the (space, subject) index:
// valid_from <= $at < valid_to over held and archived facts.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE (f.held_from IS NOT NULL OR f.archived = true)
  AND f.status <> 'FLAGGED_CONFLICT'
  AND coalesce(f.valid_from <= $at, true) AND (f.valid_to IS NULL OR f.valid_to > $at)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
