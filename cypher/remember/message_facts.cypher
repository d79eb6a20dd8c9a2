// For the dedup prefilter: the statuses of the facts an exact message produced before. The
// seek hint keeps the seek: on a near-empty database the planner chooses an index scan.
MATCH (f:Fact {space: $space, message_key: $message_key})
USING INDEX SEEK f:Fact(space, message_key)
RETURN f.id AS id, f.subject AS subject, f.value AS value, f.status AS status
