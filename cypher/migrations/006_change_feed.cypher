// The change feed reads a space's outbox entries in commit order (space, seq), and the
// floor below which pruning or an erasure removed them.
CREATE INDEX outbox_space_seq IF NOT EXISTS FOR (o:Outbox) ON (o.space, o.seq);
CREATE CONSTRAINT outbox_floor_space IF NOT EXISTS FOR (f:OutboxFloor) REQUIRE f.space IS UNIQUE;
