// For check_before_act: the hot facts of the given subjects, with the kinds of the open
// conflicts each one is part of.
UNWIND $subjects AS subject
MATCH (f:Fact {space: $space, subject: subject})
WHERE f.status IN ['ACTIVE', 'FLAGGED_CONFLICT']
RETURN f {.*, embedding: null,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          held_from: toString(f.held_from), refined_at: toString(f.refined_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          open_conflicts: COLLECT { MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f)
                                    RETURN c.kind }} AS fact
ORDER BY f.subject, f.recorded_at, f.id
