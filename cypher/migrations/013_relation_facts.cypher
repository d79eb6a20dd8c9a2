// Graph schema version 13: the facts of one relation of a space, found by its snake_case
// key, so the multi-hop ranking can read a sample of each relation's facts (the types and
// words they were written with) without scanning the space.
CREATE INDEX fact_rel_key IF NOT EXISTS FOR (f:Fact) ON (f.space, f.rel_key);
