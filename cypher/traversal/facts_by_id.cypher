// The facts behind projection edges, with their provenance. One row.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN collect(f {@include(fragments/fact_columns)}) AS facts
