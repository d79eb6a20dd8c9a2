// Graph schema version 2 (retrieval): `search_text` is the fact as words ("primary database:
// Postgres"), so the English analyzer can stem and split what snake_case subjects glue
// together; the category index finds critical facts without scanning a space, and the
// vector sequence index lets a process fetch only the vectors stored since it last looked.
CREATE FULLTEXT INDEX fact_search IF NOT EXISTS FOR (f:Fact) ON EACH [f.search_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
CREATE INDEX fact_category IF NOT EXISTS FOR (f:Fact) ON (f.space, f.category, f.status);
CREATE INDEX fact_vector_seq IF NOT EXISTS FOR (f:Fact) ON (f.space, f.vector_seq);
