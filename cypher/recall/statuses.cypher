// The current status of each given fact (a missing id was erased).
// The id index, not the space's: a large space would otherwise be scanned.
MATCH (f:Fact)
USING INDEX f:Fact(id)
WHERE f.id IN $ids AND f.space = $space
RETURN f.id AS id, f.status AS status
