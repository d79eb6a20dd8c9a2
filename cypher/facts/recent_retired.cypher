// The most recent retired facts of a space, newest first.
MATCH (f:Fact {space: $space})
WHERE f.status IN ['SUPERSEDED', 'HISTORICAL']
WITH f
ORDER BY coalesce(f.retired_at, f.recorded_at) DESC, f.id DESC
LIMIT $limit
RETURN f {@include(fragments/fact_columns)} AS fact
