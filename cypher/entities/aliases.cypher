// The spellings facts used for each given entity (a head or tail as written, when it differs
// from the entity's name), at most $limit each, in one round trip for a batch.
UNWIND $keys AS key
MATCH (e:Entity {space: $space, key: key})
RETURN key, COLLECT {
  MATCH (e)<-[a:ABOUT]-(f:Fact)
  WITH DISTINCT CASE a.role WHEN 'head' THEN f.head ELSE f.tail END AS spelling
  WHERE spelling IS NOT NULL AND spelling <> e.name
  RETURN spelling ORDER BY spelling LIMIT $limit
} AS aliases
