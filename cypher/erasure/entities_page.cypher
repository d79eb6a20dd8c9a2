// A page of a space's entities (and their remaining projection edges), erased ahead of the
// final transaction of a whole-space erasure; returns how many went.
MATCH (e:Entity {space: $space})
WITH e
LIMIT $limit
DETACH DELETE e
RETURN count(*) AS deleted
