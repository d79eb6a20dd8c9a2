// The spaces of a subtree (every space key that starts with the prefix) that still hold
// something an erasure takes: facts, entities, conflicts, messages or vectors (a space
// erased before holds none of them; its Space node stays).
MATCH (s:Space)
WHERE s.key STARTS WITH $prefix
WITH s.key AS space
WHERE EXISTS { MATCH (:Fact {space: space}) }
   OR EXISTS { MATCH (:Entity {space: space}) }
   OR EXISTS { MATCH (:Conflict {space: space}) }
   OR EXISTS { MATCH (:Message {space: space}) }
   OR EXISTS { MATCH (v:FactVector) WHERE v.space = space AND v.seq IS NOT NULL }
RETURN space
