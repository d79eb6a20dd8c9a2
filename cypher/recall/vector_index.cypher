// The vector index's configuration (its dimensions), to check vectors against it.
SHOW INDEXES YIELD name, type, state, options
WHERE name = 'fact_vector'
RETURN type, state, options
