// Store each fact's search text and, when one was computed, its vector (a float vector
// property under the fact_embedding index), stamped with the space's next vector sequence
// numbers so in-process vector caches can fetch exactly what changed since they last looked.
// A space erased meanwhile has nothing left to embed: MATCH, so it is not brought back.
MATCH (s:Space {key: $space})
SET s.vector_seq = coalesce(s.vector_seq, 0) + size($rows)
WITH s.vector_seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
MATCH (f:Fact {id: row.id})
USING INDEX f:Fact(id)
WHERE f.space = $space
SET f.search_text = row.text
WITH f, row, seq
WHERE row.vector IS NOT NULL
SET f.vector_seq = seq
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
RETURN count(f) AS embedded
