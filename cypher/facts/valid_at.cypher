// What was true in the world at $at: valid_from <= $at < valid_to, over held and archived
// facts (never a tombstone, a flagged proposal or a rejected one).
MATCH (f:Fact {space: $space})
WHERE ($subject IS NULL OR f.subject = $subject)
  AND (f.held_from IS NOT NULL OR f.archived = true)
  AND f.status <> 'FLAGGED_CONFLICT'
  AND coalesce(f.valid_from <= $at, true) AND (f.valid_to IS NULL OR f.valid_to > $at)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
