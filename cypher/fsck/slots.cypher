// fsck: single-valued slots holding more than one ACTIVE state value (list slots, events and
// facts kept side by side by a dismissed conflict are exempt).
MATCH (f:Fact {space: $space, status: 'ACTIVE'})
WHERE f.kind = 'state' AND coalesce(f.cardinality, 'one') = 'one'
  AND coalesce(f.coexist, false) = false
WITH f.subject AS subject, f.scope AS scope, collect(f.id) AS ids
WHERE size(ids) > 1
RETURN subject, scope, ids
ORDER BY subject, scope
LIMIT $limit
