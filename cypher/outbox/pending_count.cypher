// How many outbox entries wait for the mirror (in one space, or in all when $space is null),
// and the oldest one's time.
MATCH (o:Outbox)
WHERE o.done = false AND ($space IS NULL OR o.space = $space)
RETURN count(o) AS pending, min(o.created_at) AS oldest
