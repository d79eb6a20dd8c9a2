// The entities of a space, optionally of one type (key prefix) and as they existed at $at.
MATCH (e:Entity {space: $space})
WHERE ($prefix IS NULL OR e.key STARTS WITH $prefix)
  AND ($at IS NULL OR e.created_at <= $at)
RETURN e {.*} AS entity
ORDER BY e.key
