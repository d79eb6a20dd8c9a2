// The supersession chain of one attribute (relation or subject) of an entity, oldest first.
MATCH (e:Entity {space: $space, key: $key})<-[:ABOUT {role: 'head'}]-(f:Fact)
WHERE f.rel_key = $attribute OR f.subject = $attribute
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id },
          retracts_ids: COLLECT { MATCH (f)-[:RETRACTS]->(gone:Fact) RETURN gone.id }} AS fact
ORDER BY f.recorded_at, f.id
