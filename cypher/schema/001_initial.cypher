// Graph schema version 1: uniqueness on ids and entity keys, the slot index that keeps the
// hot path off retired rows, full-text and vector indexes for retrieval.
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE;
CREATE CONSTRAINT space_key IF NOT EXISTS FOR (s:Space) REQUIRE s.key IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.space, e.key) IS UNIQUE;
CREATE CONSTRAINT conflict_id IF NOT EXISTS FOR (c:Conflict) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT outbox_id IF NOT EXISTS FOR (o:Outbox) REQUIRE o.id IS UNIQUE;
CREATE INDEX fact_slot IF NOT EXISTS FOR (f:Fact) ON (f.space, f.subject, f.scope, f.status);
CREATE INDEX fact_space_status IF NOT EXISTS FOR (f:Fact) ON (f.space, f.status);
CREATE INDEX fact_message IF NOT EXISTS FOR (f:Fact) ON (f.space, f.message_key);
CREATE INDEX conflict_space_status IF NOT EXISTS FOR (c:Conflict) ON (c.space, c.status);
CREATE INDEX outbox_pending IF NOT EXISTS FOR (o:Outbox) ON (o.done);
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.subject, f.value];
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON EACH [e.name];
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (f:Fact) ON f.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
