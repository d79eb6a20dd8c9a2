// Entities by exact keys (name resolution tries every typed key of a name: never fuzzy).
UNWIND $keys AS key
MATCH (e:Entity {space: $space, key: key})
RETURN e {.*} AS entity
