// Keep the projection in step with facts that were written or changed (superseded, retracted,
// refined, approved): a status label for Neo4j Browser (Active, Flagged, Superseded,
// Historical) and the fact's edge, retired (status, valid_to, retired_at), never deleted.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.space = $space
REMOVE f:Active:Flagged:Superseded:Historical
SET f:$(CASE f.status WHEN 'ACTIVE' THEN 'Active' WHEN 'FLAGGED_CONFLICT' THEN 'Flagged'
             WHEN 'SUPERSEDED' THEN 'Superseded' ELSE 'Historical' END)
WITH f
WHERE f.rel_type IS NOT NULL
MATCH (f)-[:ABOUT {role: 'head'}]->(h:Entity), (f)-[:ABOUT {role: 'tail'}]->(t:Entity)
MATCH (h)-[r]->(t)
WHERE r.fact_id = f.id
SET r += f {.status, .confidence, .valid_from, .valid_to, .held_from, .retired_at,
            .recorded_at, .archived, .coexist, .relation, .subject}
RETURN count(r) AS synced
