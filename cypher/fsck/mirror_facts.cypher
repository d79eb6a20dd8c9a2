// What the mirror check compares: every fact of a space with its plain fields.
MATCH (f:Fact {space: $space})
RETURN f.id AS id, f.status AS status, f.scope AS scope, f.subject AS subject,
       f.value AS value
