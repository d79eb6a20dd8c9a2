// fsck: projection edges whose fact is gone, belongs elsewhere, or disagrees with the edge
// (status, ends).
MATCH (h:Entity {space: $space})-[r]->(t:Entity)
OPTIONAL MATCH (f:Fact {id: r.fact_id})
WITH r, h, t, f
WHERE f IS NULL OR f.space <> $space OR f.status <> r.status
   OR f.head_key <> h.key OR f.tail_key <> t.key
RETURN r.fact_id AS fact_id, type(r) AS type, h.key AS head, t.key AS tail,
       r.status AS edge_status, f.status AS fact_status
LIMIT $limit
