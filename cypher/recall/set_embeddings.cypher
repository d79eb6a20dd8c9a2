// Store each fact's vector on its FactVector node (under the fact_vector index), stamped with
// the space's next vector sequence numbers so in-process vector caches can fetch exactly what
// changed since they last looked. Nothing here locks a Fact or the Space node, which writers
// lock: the numbers come from the space's VectorSeq node. That node is locked first, and an
// erasure locks it before deleting facts and their vectors, so the two follow one another: a
// fact erased meanwhile is not found here, and no vector outlives its fact.
MERGE (s:VectorSeq {space: $space})
SET s.seq = coalesce(s.seq, 0) + size($rows)
WITH s.seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
WHERE row.vector IS NOT NULL
MATCH (f:Fact {id: row.id})
WHERE f.space = $space
MERGE (v:FactVector {fact_id: f.id})
SET v.space = $space, v.seq = seq
WITH v, row
CALL db.create.setNodeVectorProperty(v, 'embedding', row.vector)
RETURN count(v) AS embedded
