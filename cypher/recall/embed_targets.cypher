// What to embed after a write: the text of each fact it created or refined.
MATCH (f:Fact)
USING INDEX f:Fact(id)
WHERE f.id IN $ids AND f.space = $space
RETURN f.id AS id, f.subject AS subject, f.scope AS scope, f.value AS value
