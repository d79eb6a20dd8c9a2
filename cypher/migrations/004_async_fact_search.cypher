// Graph schema version 4: the `fact_search` full-text index becomes eventually consistent.
// Kept in step inside every commit, Lucene's update was about half of a single-fact write
// (~5 ms of ~10 ms, measured). Refreshed in the background instead, it is brought up to date
// before a lexical ranking in a space this process has written to (recall/await_fulltext),
// so a process still reads its own writes; other processes' writes show within moments.
DROP INDEX fact_search IF EXISTS;
CREATE FULLTEXT INDEX fact_search IF NOT EXISTS FOR (f:Fact) ON EACH [f.search_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
CALL db.awaitIndex('fact_search', 600);
