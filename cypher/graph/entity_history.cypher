// The supersession chain of one attribute (relation or subject) of an entity, oldest first.
MATCH (e:Entity {space: $space, key: $key})<-[:ABOUT {role: 'head'}]-(f:Fact)
WHERE f.rel_key = $attribute OR f.subject = $attribute
RETURN f {.*, valid_from: toString(f.valid_from), valid_to: toString(f.valid_to),
          held_from: toString(f.held_from), recorded_at: toString(f.recorded_at),
          retired_at: toString(f.retired_at),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
