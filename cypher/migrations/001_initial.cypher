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
// The full-text indexes are eventually consistent: a synchronous Lucene update at every
// commit tripled the cost of a one-fact write. Readers that need their own writes call
// recall/await_fulltext (db.index.fulltext.awaitEventuallyConsistentIndexRefresh) first.
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.subject, f.value]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON EACH [e.name]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (f:Fact) ON f.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
