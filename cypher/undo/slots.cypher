// The active facts of the slots an undo would restore values into.
UNWIND $slots AS s
MATCH (f:Fact {space: $space, subject: s.subject, scope: s.scope, status: 'ACTIVE'})
RETURN s.subject AS subject, s.scope AS scope, f.id AS id, f.status AS status,
       f.value_key AS value_key
