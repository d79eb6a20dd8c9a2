// Store each fact's search text and, when one was computed, its vector (a float vector
// property under the fact_embedding index), stamped with the space's next vector sequence
// numbers so in-process vector caches can fetch exactly what changed since they last looked.
// The space and the facts are found by the element ids embed_targets read (each checked
// against its key): a lookup by element id takes no index-entry lock, so the Space node's
// write lock is the first lock this transaction takes, as it is a writer's, and the two
// never wait for each other in a cycle. A space erased meanwhile has nothing left to embed:
// the Space is matched, never created, so it is not brought back.
MATCH (s)
WHERE elementId(s) = $space_node
WITH s WHERE 'Space' IN labels(s) AND s.key = $space
SET s.vector_seq = coalesce(s.vector_seq, 0) + size($rows)
WITH s.vector_seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
MATCH (f)
WHERE elementId(f) = row.node
WITH f, row, seq WHERE 'Fact' IN labels(f) AND f.id = row.id AND f.space = $space
SET f.search_text = row.text
WITH f, row, seq
WHERE row.vector IS NOT NULL
SET f.vector_seq = seq
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
RETURN count(f) AS embedded
