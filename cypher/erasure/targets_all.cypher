// Erasure targets: every fact of the space.
MATCH (f:Fact {space: $space})
RETURN f.id AS id
