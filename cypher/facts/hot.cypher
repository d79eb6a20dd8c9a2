// The space's hot facts (ACTIVE and/or FLAGGED_CONFLICT), optionally for one subject.
MATCH (f:Fact {space: $space})
WHERE f.status IN $statuses AND ($subject IS NULL OR f.subject = $subject)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
