// What memory held as current at $at for one subject, through the (space, subject) index:
// held_from <= $at < retired_at.
MATCH (f:Fact {space: $space, subject: $subject})
WHERE f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
