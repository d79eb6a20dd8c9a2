// When a projection edge `r` is part of the graph a traversal reads: a relation edge that is
// current, or that memory held at $as_of, or that was true in the world at $valid_at.
r.fact_id IS NOT NULL
AND ($as_of IS NOT NULL OR $valid_at IS NOT NULL OR r.status = 'ACTIVE')
AND ($as_of IS NULL OR (r.held_from <= $as_of
                        AND (r.retired_at IS NULL OR r.retired_at > $as_of)))
AND ($valid_at IS NULL OR ((r.held_from IS NOT NULL OR r.archived = true)
                           AND r.status <> 'FLAGGED_CONFLICT'
                           AND coalesce(r.valid_from <= $valid_at, true)
                           AND (r.valid_to IS NULL OR r.valid_to > $valid_at)))
