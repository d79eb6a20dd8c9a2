// Store each fact's search text and, when one was computed, its vector (a float vector
// property under the fact_embedding index), stamped with the space's next vector sequence
// numbers so in-process vector caches can fetch exactly what changed since they last looked.
// The numbers come from the space's VectorSeq node, never from its Space node: the Space
// node's lock is the writers' lock, and storing vectors waits for no writer. The facts are
// found by the element ids embed_targets read (each checked against its id and space), which
// takes no lock; facts erased meanwhile are not found, and when none is left nothing is stored.
UNWIND $rows AS row
MATCH (f)
WHERE elementId(f) = row.node
WITH f, row WHERE 'Fact' IN labels(f) AND f.id = row.id AND f.space = $space
WITH collect({fact: f, row: row}) AS found
WHERE size(found) > 0
MERGE (v:VectorSeq {space: $space})
SET v.seq = coalesce(v.seq, 0) + size(found)
WITH v.seq - size(found) AS base, found
UNWIND range(0, size(found) - 1) AS i
WITH base + i + 1 AS seq, found[i].fact AS f, found[i].row AS row
SET f.search_text = row.text
WITH f, row, seq
WHERE row.vector IS NOT NULL
SET f.vector_seq = seq
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
RETURN count(f) AS embedded
