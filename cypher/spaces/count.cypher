// How many spaces lie under a prefix (what spaces/page lists).
MATCH (s:Space)
WHERE s.key STARTS WITH $prefix AND s.writes IS NOT NULL
RETURN count(*) AS total
