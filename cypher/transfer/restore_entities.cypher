// Restore: entities exactly as exported (a fact's projection may have made one already);
// times arrive as ISO text.
UNWIND $rows AS row
MERGE (e:Entity {space: $space, key: row.key})
SET e.type = row.type, e.name = row.name, e.norm = row.norm, e.created_at = datetime(row.created_at),
    e.seeded = row.seeded
RETURN count(e) AS entities
