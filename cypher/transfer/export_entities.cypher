// Export: the entities of a space, with the facts about each (for erasure to find them in
// an import's event).
MATCH (e:Entity {space: $space})
WITH e, COLLECT { MATCH (f:Fact)-[:ABOUT]->(e) RETURN DISTINCT f.id } AS facts
RETURN e {.key, .type, .name, .norm, .seeded, created_at: toString(e.created_at),
          facts: facts} AS entity
ORDER BY e.key
