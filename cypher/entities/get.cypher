// One entity by its composite key.
MATCH (e:Entity {space: $space, key: $key})
RETURN e {.*} AS entity
