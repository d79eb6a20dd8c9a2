// The facts behind projection edges, with their provenance. Times travel as ISO strings:
// hydrating driver DateTimes costs more than the query for a few hundred facts. One row.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
RETURN collect(f {.*, valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
                  held_from: toString(f.held_from), recorded_at: toString(f.recorded_at),
                  retired_at: toString(f.retired_at)}) AS facts
