// The current status of each given fact (a missing id was erased).
MATCH (f:Fact)
WHERE f.id IN $ids AND f.space = $space
RETURN f.id AS id, f.status AS status
