// Restore: the space node an event belongs to, claimed by the store it is restored from,
// its write counter at least the event's seq.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.writes = CASE WHEN coalesce(s.writes, 0) < coalesce($seq, 0) THEN $seq
                    ELSE s.writes END,
    s.mirror = $store
RETURN s.writes AS writes
