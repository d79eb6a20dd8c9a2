// Retire facts by a tombstone.
UNWIND $edges AS e
MATCH (tomb:Fact {id: e.new}), (old:Fact {id: e.old})
WHERE old.space = $space AND tomb.space = $space
CREATE (tomb)-[:RETRACTS {at: $now}]->(old)
SET old.status = 'SUPERSEDED', old.retired_at = $now,
    old.valid_to = coalesce(old.valid_to, e.valid_to)
RETURN count(old) AS retired
