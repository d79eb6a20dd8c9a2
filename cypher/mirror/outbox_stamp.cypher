// The audited call's row, kept with the outbox entries its transaction created (this space's
// pending entries at the current write counter that carry none yet): it survives a crash
// after the commit, and whoever applies an entry appends its row to the audit chain.
MATCH (s:Space {key: $space})
MATCH (o:Outbox)
WHERE o.done = false AND o.space = $space AND o.seq = s.writes AND o.audit IS NULL
SET o.audit = $audit
RETURN o.id AS id
