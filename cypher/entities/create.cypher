// Seed a canonical entity ahead of ingestion, under the space's write lock; the composite
// key makes it idempotent.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.writes = coalesce(s.writes, 0) + 1
MERGE (e:Entity {space: $space, key: $key})
ON CREATE SET e.type = $type, e.name = $name, e.norm = $norm, e.created_at = $now
SET e.seeded = true
RETURN e {.*} AS entity
