// A page of the spaces under a prefix (a tenant's: `acme/`) in key order: after $after, or
// reading backwards the ones just before $before; spaces/count counts the same set: spaces
// something wrote to (a writer's lock counts `writes`; a process that only read one claimed
// its Space node without writing).
MATCH (s:Space)
WHERE s.key STARTS WITH $prefix AND s.writes IS NOT NULL
  AND ($after IS NULL OR [s.key] > $after)
  AND ($before IS NULL OR [s.key] < $before)
WITH s
ORDER BY CASE WHEN $backward THEN null ELSE s.key END,
         CASE WHEN $backward THEN s.key END DESC
LIMIT $limit
RETURN s.key AS space, toString(s.created_at) AS created_at
