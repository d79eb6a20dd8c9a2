// The facts about one entity (as head or tail) that are current, or that memory held at
// $as_of, or that were true in the world at $valid_at; with the entity at the other end.
// The newest $limit of them, newest first.
MATCH (e:Entity {space: $space, key: $key})<-[a:ABOUT]-(f:Fact)
WHERE ($as_of IS NOT NULL OR $valid_at IS NOT NULL OR f.status = 'ACTIVE')
  AND ($as_of IS NULL OR (f.held_from <= $as_of
                          AND (f.retired_at IS NULL OR f.retired_at > $as_of)))
  AND ($valid_at IS NULL OR ((f.held_from IS NOT NULL OR f.archived = true)
                             AND f.status <> 'FLAGGED_CONFLICT'
                             AND coalesce(f.valid_from <= $valid_at, true)
                             AND (f.valid_to IS NULL OR f.valid_to > $valid_at)))
OPTIONAL MATCH (f)-[b:ABOUT]->(other:Entity)
WHERE b.role <> a.role
RETURN a.role AS role, other {.key, .type, .name, created_at: toString(other.created_at)} AS other,
       f {@include(fragments/fact_columns)} AS fact
ORDER BY f.recorded_at DESC, f.id DESC
LIMIT $limit
