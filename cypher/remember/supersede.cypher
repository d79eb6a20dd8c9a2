// Retire facts by a newer one; the retired fact keeps every property and gains retired_at.
UNWIND $edges AS e
MATCH (new:Fact {id: e.new}), (old:Fact {id: e.old})
WHERE old.space = $space AND new.space = $space
CREATE (new)-[:SUPERSEDES {at: $now}]->(old)
SET old.status = 'SUPERSEDED', old.retired_at = $now,
    old.valid_to = coalesce(old.valid_to, e.valid_to)
RETURN count(old) AS retired
