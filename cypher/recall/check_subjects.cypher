// For check_before_act: the hot facts of the given subjects, with the kinds of the open
// conflicts each one is part of. $as_of: as memory stood then (each fact's status then, the
// conflicts open then); $valid_at: only facts true in the world then.
UNWIND $subjects AS subject
MATCH (f:Fact {space: $space, subject: subject})
WHERE $as_of IS NULL OR f.recorded_at <= $as_of
WITH f, CASE WHEN $as_of IS NULL OR f.retired_at <= $as_of THEN f.status
             WHEN f.held_from <= $as_of THEN 'ACTIVE'
             ELSE 'FLAGGED_CONFLICT' END AS status
WHERE status IN ['ACTIVE', 'FLAGGED_CONFLICT']
  AND ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                             AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
RETURN f {.*, status: status,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          held_from: toString(f.held_from),
          valid_to_at: toString(f.valid_to_at), refined_at: toString(f.refined_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          open_conflicts: COLLECT {
            MATCH (c:Conflict)-[:INVOLVES]->(f)
            WHERE CASE WHEN $as_of IS NULL THEN c.status = 'open'
                       ELSE c.created_at <= $as_of
                            AND (c.closed_at IS NULL OR c.closed_at > $as_of) END
            RETURN c.kind }} AS fact
ORDER BY f.subject, f.recorded_at, f.id
