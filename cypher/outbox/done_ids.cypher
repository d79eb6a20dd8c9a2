// The applied outbox entries of a space still kept in the graph (for the mirror check).
MATCH (o:Outbox)
WHERE o.done = true AND o.space = $space
RETURN o.id AS id
