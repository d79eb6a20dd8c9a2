// Each copy an undo wrote RESTORES the fact whose value it brings back.
UNWIND $restores AS r
MATCH (new:Fact {id: r.new}), (old:Fact {id: r.old})
WHERE new.space = $space AND old.space = $space
CREATE (new)-[:RESTORES {at: $now}]->(old)
