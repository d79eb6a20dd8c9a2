// Counts for each given space, by aggregation where the rows lie: facts by the status they
// had at $as_of (now when null; see facts/page), the conflicts open then (and of them the
// confirm-gate ones), and the entities created by then. World time: only facts true at
// $valid_at (or at some point of [$valid_start, $valid_end)) are counted, and conflicts
// involving one.
UNWIND $spaces AS key
CALL (key) {
  MATCH (f:Fact {space: key})
  WHERE $as_of IS NULL OR f.recorded_at <= $as_of
  WITH f,
       CASE WHEN $as_of IS NULL OR f.retired_at <= $as_of THEN f.status
            WHEN f.held_from <= $as_of THEN 'ACTIVE'
            ELSE 'FLAGGED_CONFLICT' END AS status,
       CASE WHEN $as_of IS NOT NULL
                 AND coalesce(f.valid_to_at, CASE WHEN f.valid_to = f.retired_at THEN f.retired_at END)
                     > $as_of
            THEN null ELSE f.valid_to END AS valid_to
  WHERE ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                               AND (valid_to IS NULL OR valid_to > $valid_at)))
    AND ($valid_start IS NULL OR valid_to IS NULL OR valid_to > $valid_start)
    AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true))
  RETURN count(CASE WHEN status = 'ACTIVE' THEN 1 END) AS active,
         count(CASE WHEN status = 'FLAGGED_CONFLICT' THEN 1 END) AS flagged,
         count(CASE WHEN status = 'SUPERSEDED' THEN 1 END) AS superseded,
         count(CASE WHEN status = 'HISTORICAL' THEN 1 END) AS historical
}
CALL (key) {
  MATCH (c:Conflict {space: key})
  WHERE CASE WHEN $as_of IS NULL THEN c.status = 'open'
             ELSE c.created_at <= $as_of AND (c.closed_at IS NULL OR c.closed_at > $as_of) END
    AND (($valid_at IS NULL AND $valid_start IS NULL AND $valid_end IS NULL) OR EXISTS {
           MATCH (c)-[:INVOLVES]->(f:Fact)
           WHERE ($valid_at IS NULL OR (coalesce(f.valid_from <= $valid_at, true)
                                        AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
             AND ($valid_start IS NULL OR f.valid_to IS NULL OR f.valid_to > $valid_start)
             AND ($valid_end IS NULL OR coalesce(f.valid_from < $valid_end, true)) })
  RETURN count(c) AS open_conflicts,
         count(CASE WHEN c.kind = 'pending' THEN 1 END) AS pending_changes
}
CALL (key) {
  MATCH (e:Entity {space: key})
  WHERE $as_of IS NULL OR e.created_at <= $as_of
  RETURN count(e) AS entities
}
RETURN key AS space, active, flagged, superseded, historical, open_conflicts, pending_changes,
       entities
