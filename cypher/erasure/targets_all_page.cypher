// Erasure of a whole space, ahead of its final transaction: a page of its facts (a space too
// large to erase in one transaction's memory is erased a page per transaction).
MATCH (f:Fact {space: $space})
RETURN f.id AS id
LIMIT $limit
