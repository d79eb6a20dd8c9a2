// A space's vector sequence moves from its Space node to a VectorSeq node of its own, so that
// storing vectors takes no lock a writer of the space takes. The move is idempotent: a Space
// that no longer carries the property is skipped.
CREATE CONSTRAINT vector_seq_space IF NOT EXISTS FOR (v:VectorSeq) REQUIRE v.space IS UNIQUE;
MATCH (s:Space) WHERE s.vector_seq IS NOT NULL
MERGE (v:VectorSeq {space: s.key})
SET v.seq = CASE WHEN coalesce(v.seq, 0) > s.vector_seq THEN v.seq ELSE s.vector_seq END
REMOVE s.vector_seq;
