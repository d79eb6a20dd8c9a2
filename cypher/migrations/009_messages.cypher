// Graph schema version 9: a write's text is stored once, on a Message node its facts name
// (`message_id`), instead of a copy in every fact's `raw`. Facts written before keep theirs.
CREATE CONSTRAINT message_id IF NOT EXISTS FOR (m:Message) REQUIRE m.id IS UNIQUE;
CREATE INDEX message_space IF NOT EXISTS FOR (m:Message) ON (m.space);
