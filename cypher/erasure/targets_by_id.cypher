// Erasure targets: the given fact ids that belong to the space.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN f.id AS id
