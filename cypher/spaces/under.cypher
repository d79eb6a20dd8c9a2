// The spaces of a subtree: every space key that starts with the prefix ('' for all), and
// for $store, only those that store claimed (or nobody did).
MATCH (s:Space)
WHERE s.key STARTS WITH $prefix AND ($store IS NULL OR s.mirror IS NULL OR s.mirror = $store)
RETURN s.key AS space
