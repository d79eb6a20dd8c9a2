// The database's indexes but the token lookups Neo4j keeps for itself, for the check that
// every declared index exists, is not FAILED and has the declared options.
SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options, state
WHERE type <> 'LOOKUP'
RETURN name, type, entityType, labelsOrTypes, properties, options.indexConfig AS config, state
