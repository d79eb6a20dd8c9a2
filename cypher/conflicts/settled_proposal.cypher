// A proposal of a confirm-gate conflict that is closed already (someone confirmed or rejected
// it first): the conflict's status and the proposal's. A proposal was recorded by the write
// that opened the conflict or joined it later, never before (unlike the value it would replace).
MATCH (c:Conflict {kind: 'pending'})-[:INVOLVES]->(f:Fact {id: $id})
WHERE c.space = $space AND c.status <> 'open' AND f.recorded_at >= c.created_at
RETURN c.status AS status, f.status AS fact_status
ORDER BY c.closed_at DESC
LIMIT 1
