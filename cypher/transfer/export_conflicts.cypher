// Export: the conflicts of a space with their outcome and the facts they involve.
// `c.status IS NOT NULL` (every conflict has one) lets the (space, status) index find them
// instead of a label scan.
MATCH (c:Conflict {space: $space}) WHERE c.status IS NOT NULL
RETURN c {.id, .subject, .scope, .kind, .status, .severity, .note, .by, .winner,
          created_at: toString(c.created_at), closed_at: toString(c.closed_at),
          fact_ids: COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) RETURN f.id }} AS conflict
ORDER BY c.created_at, c.id
