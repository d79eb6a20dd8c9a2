// Graph schema version 10: a fact's vector moves from the Fact node to a FactVector node of
// its own that names the fact by id, so storing vectors locks no fact a writer may be
// changing. The move runs in batches and is idempotent (a fact whose vector has moved no
// longer carries one); the old vector index and sequence index go once it is done.
CREATE CONSTRAINT fact_vector_fact IF NOT EXISTS FOR (v:FactVector) REQUIRE v.fact_id IS UNIQUE;
CREATE INDEX fact_vector_seq_order IF NOT EXISTS FOR (v:FactVector) ON (v.space, v.seq);
CREATE VECTOR INDEX fact_vector IF NOT EXISTS FOR (v:FactVector) ON v.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
MATCH (f:Fact) WHERE f.embedding IS NOT NULL OR f.vector_seq IS NOT NULL
CALL (f) {
  FOREACH (_ IN CASE WHEN f.embedding IS NULL THEN [] ELSE [1] END |
    MERGE (v:FactVector {fact_id: f.id})
    SET v.space = f.space, v.seq = coalesce(f.vector_seq, 0), v.embedding = f.embedding)
  REMOVE f.embedding, f.vector_seq
} IN TRANSACTIONS OF 5000 ROWS;
DROP INDEX fact_embedding IF EXISTS;
DROP INDEX fact_vector_seq IF EXISTS;
CALL db.awaitIndex('fact_vector', 600);
