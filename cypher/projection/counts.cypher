// The size of a space's graph (bench/graph reports it): facts, entities, typed projection
// edges and ABOUT edges, counted where they lie instead of shipped to the client.
RETURN COUNT { MATCH (f:Fact {space: $space}) } AS facts,
       COUNT { MATCH (e:Entity {space: $space}) } AS entities,
       COUNT { MATCH (h:Entity {space: $space})-[r]->(:Entity) WHERE r.fact_id IS NOT NULL }
         AS edges,
       COUNT { MATCH (f:Fact {space: $space})-[:ABOUT]->(:Entity) } AS about
