// What memory held as current at $at: held_from <= $at < retired_at.
MATCH (f:Fact {space: $space})
WHERE ($subject IS NULL OR f.subject = $subject)
  AND f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
