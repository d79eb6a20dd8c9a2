// Every fact of a small recall pool (see pool_size), oldest first; times
// as ISO strings (the driver's DateTime decoding would cost more than the query).
MATCH (f:Fact {space: $space})
WHERE f.status IN $statuses
  AND ($at IS NULL OR (f.recorded_at <= $at AND ($history OR
       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))
  AND ($valid_at IS NULL OR ((f.archived = true OR (f.held_from IS NOT NULL
                               AND ($at IS NULL OR f.held_from <= $at)))
                              AND f.status <> 'FLAGGED_CONFLICT'
                              AND coalesce(f.valid_from <= $valid_at, true)
                              AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
WITH f LIMIT $cap
RETURN f {.*,
          valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          recorded_at: toString(f.recorded_at), retired_at: toString(f.retired_at),
          held_from: toString(f.held_from), refined_at: toString(f.refined_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
