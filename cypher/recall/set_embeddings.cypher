// Store each fact's vector on its FactVector node (under the fact_vector index), stamped with
// its space's next vector sequence numbers so in-process vector caches can fetch exactly what
// changed since they last looked; $spaces ({key, rows}, ordered by key) may name several.
// Nothing here locks a Fact or a Space node, which writers lock: the numbers come from each
// space's VectorSeq node. That node is locked before the space's facts are looked up, and an
// erasure locks it before deleting facts and their vectors, so the two follow one another: a
// fact erased meanwhile is not found here, and no vector outlives its fact.
UNWIND $spaces AS space
MERGE (s:VectorSeq {space: space.key})
SET s.seq = coalesce(s.seq, 0) + size(space.rows)
WITH space, s.seq - size(space.rows) AS base
UNWIND range(0, size(space.rows) - 1) AS i
WITH space.key AS key, base + i + 1 AS seq, space.rows[i] AS row
WHERE row.vector IS NOT NULL
MATCH (f:Fact {id: row.id})
WHERE f.space = key
MERGE (v:FactVector {fact_id: f.id})
SET v.space = key, v.seq = seq
WITH v, row
CALL db.create.setNodeVectorProperty(v, 'embedding', row.vector)
RETURN count(v) AS embedded
