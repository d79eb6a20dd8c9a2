// Graph schema version 5: `fact_text`, a full-text index over subject and value from version 1,
// goes. No statement reads it (lexical ranking uses `fact_search`), yet every fact write paid
// for its Lucene update.
DROP INDEX fact_text IF EXISTS;
