// Fact clustering: ACTIVE facts whose entity set overlaps a new fact's with
// Jaccard >= $threshold, leaving out what reconciliation already related (same slot, the
// facts it superseded, retracted or flagged against). At most $limit per new fact.
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
WHERE f.space = $space AND f.entity_keys IS NOT NULL
CALL (row, f) {
  UNWIND f.entity_keys AS key
  MATCH (:Entity {space: $space, key: key})<-[:ABOUT]-(o:Fact)
  WHERE o.status = 'ACTIVE' AND o.id <> f.id AND NOT o.id IN row.related
    AND NOT (o.subject = f.subject AND o.scope = f.scope)
  WITH o, collect(DISTINCT key) AS shared
  WITH o, shared, toFloat(size(shared)) /
       (size(f.entity_keys) + coalesce(size(o.entity_keys), 1) - size(shared)) AS jaccard
  WHERE jaccard >= $threshold
  RETURN o, shared, jaccard
  ORDER BY jaccard DESC, o.recorded_at DESC, o.id
  LIMIT $limit
}
RETURN f.id AS fact_id, o.id AS other, o.subject AS subject, o.value AS value,
       shared, jaccard
