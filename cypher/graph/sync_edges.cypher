// Keep projection edges in step with their facts (superseded, retracted, refined, approved):
// an edge is retired (status, valid_to, retired_at), never deleted.
UNWIND $ids AS id
MATCH (f:Fact {id: id})-[:ABOUT {role: 'head'}]->(h:Entity)
WHERE f.space = $space AND f.rel_type IS NOT NULL
MATCH (f)-[:ABOUT {role: 'tail'}]->(t:Entity)
MATCH (h)-[r]->(t)
WHERE r.fact_id = f.id
SET r += f {.status, .confidence, .valid_from, .valid_to, .held_from, .retired_at,
            .recorded_at, .archived, .coexist, .relation}
RETURN count(r) AS synced
