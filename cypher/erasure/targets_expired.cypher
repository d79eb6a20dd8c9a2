// Erasure targets: retired facts (superseded, retracted, historical) retired before $before.
MATCH (f:Fact {space: $space})
WHERE f.status IN ['SUPERSEDED', 'HISTORICAL'] AND f.retired_at < $before
RETURN f.id AS id
