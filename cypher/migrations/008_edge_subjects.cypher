// Graph schema version 8: a projection edge carries its fact's subject, which names the role
// the relation gives its tail ("employer" for works at): multi-hop questions name relations
// by such roles. Edges projected before this version take it from their fact; an edge that
// has it is skipped, so the move can run again.
MATCH (f:Fact) WHERE f.rel_type IS NOT NULL AND f.tail_key IS NOT NULL
CALL (f) {
  MATCH (:Entity {space: f.space, key: f.head_key})-[r]->(:Entity {space: f.space, key: f.tail_key})
  WHERE r.fact_id = f.id AND r.subject IS NULL
  SET r.subject = f.subject
} IN TRANSACTIONS OF 5000 ROWS;
