// Project facts onto the entity graph, in the transaction that wrote them: both ends become
// entities by composite key, the fact points at each with ABOUT {role}, and a relation fact
// gets its typed edge. The type is a parameter validated by graphmem.graph.identifiers and
// set through a dynamic type, never text in this query. MERGE keeps a re-run idempotent.
// An entity exists from the first fact that names it: a backfilled fact (`at`, its own
// instant) may move an entity's creation earlier.
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
WHERE f.space = $space
SET f.head_key = row.head_key, f.tail_key = row.tail_key, f.rel_type = row.rel_type,
    f.rel_key = row.rel_key, f.entity_keys = row.entity_keys
MERGE (h:Entity {space: $space, key: row.head_key})
ON CREATE SET h.type = row.head_entity_type, h.name = row.head_name, h.norm = row.head_norm,
              h.created_at = coalesce(row.at, $now)
WITH row, f, h
CALL (row, h) {
  WITH row, h WHERE row.at < h.created_at
  SET h.created_at = row.at
}
MERGE (f)-[:ABOUT {role: 'head'}]->(h)
WITH row, f, h
CALL (row, f, h) {
  WITH row, f, h WHERE row.tail_key IS NOT NULL
  MERGE (t:Entity {space: $space, key: row.tail_key})
  ON CREATE SET t.type = row.tail_entity_type, t.name = row.tail_name, t.norm = row.tail_norm,
                t.created_at = coalesce(row.at, $now)
  WITH row, f, h, t
  CALL (row, t) {
    WITH row, t WHERE row.at < t.created_at
    SET t.created_at = row.at
  }
  MERGE (f)-[:ABOUT {role: 'tail'}]->(t)
  WITH row, f, h, t WHERE row.edge
  MERGE (h)-[r:$(row.rel_type) {fact_id: f.id}]->(t)
  SET r += f {.status, .confidence, .valid_from, .valid_to, .held_from, .retired_at,
              .recorded_at, .archived, .coexist, .relation, .subject},
      r.space = $space
}
WITH collect(DISTINCT row.rel_key) AS labels
MERGE (s:Space {key: $space})
SET s.relation_labels = reduce(acc = coalesce(s.relation_labels, []), l IN labels |
      CASE WHEN l IN acc OR size(acc) >= 500 THEN acc ELSE acc + l END)
RETURN size(labels) AS labels
