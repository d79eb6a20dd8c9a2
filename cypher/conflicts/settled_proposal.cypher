// A proposal of a confirm-gate conflict someone already settled (confirmed or rejected it
// first): the conflict's status, still open while other proposals of it wait, and the
// proposal's (the caller asks only after finding no open conflict holding it). A proposal
// was recorded by the write that opened the conflict or joined it later, never before
// (unlike the value it would replace).
MATCH (c:Conflict {kind: 'pending'})-[:INVOLVES]->(f:Fact {id: $id})
WHERE c.space = $space AND f.recorded_at >= c.created_at
RETURN c.status AS status, f.status AS fact_status
ORDER BY c.created_at DESC
LIMIT 1
