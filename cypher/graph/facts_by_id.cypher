// The facts behind projection edges, with their provenance.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN f {.*} AS fact
