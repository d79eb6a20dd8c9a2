// For the dedup prefilter: the statuses of the facts an exact message produced before.
MATCH (f:Fact {space: $space, message_key: $message_key})
RETURN f.id AS id, f.subject AS subject, f.value AS value, f.status AS status
