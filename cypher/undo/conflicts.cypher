// The open conflicts holding the proposals an event flagged, each with its facts' status.
UNWIND $ids AS id
MATCH (c:Conflict)-[:INVOLVES]->(:Fact {id: id})
WHERE c.space = $space AND c.status = 'open'
WITH DISTINCT c
RETURN c.id AS id, c.kind AS kind, c.severity AS severity,
       COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) RETURN [f.id, f.status] } AS members
