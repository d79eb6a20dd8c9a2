// Conflicts of a space by status as their nodes (graph.nodes.ConflictNode inflates them), with
// the facts they involve.
MATCH (c:Conflict {space: $space})
WHERE $status IS NULL OR c.status = $status
OPTIONAL MATCH (c)-[:INVOLVES]->(f:Fact)
RETURN c AS conflict, collect(f.id) AS fact_ids
ORDER BY conflict.created_at, conflict.id
