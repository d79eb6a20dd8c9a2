// The facts an undo reads, every property, as they are now (under the space's lock).
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN f {.*} AS fact
