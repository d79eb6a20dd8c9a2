// Export: the entities of a space, with the facts about each (for erasure to find them in
// an import's event). `e.key IS NOT NULL` (every entity has one) lets the (space, key)
// index find them instead of a label scan.
MATCH (e:Entity {space: $space}) WHERE e.key IS NOT NULL
WITH e, COLLECT { MATCH (f:Fact)-[:ABOUT]->(e) RETURN DISTINCT f.id } AS facts
RETURN e {.key, .type, .name, .norm, .seeded, created_at: toString(e.created_at),
          facts: facts} AS entity
ORDER BY e.key
