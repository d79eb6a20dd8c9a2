// Graph schema version 3 (entity graph, time travel): composite indexes are only used when
// every property is matched, so a space's facts and one subject's facts (history, as-of and
// valid-at reads, fsck, rebuild) get indexes of their own instead of a label scan.
CREATE INDEX fact_space IF NOT EXISTS FOR (f:Fact) ON (f.space);
CREATE INDEX fact_subject IF NOT EXISTS FOR (f:Fact) ON (f.space, f.subject);
