// Erasure targets: every fact of a subject, in any scope and status.
MATCH (f:Fact {space: $space, subject: $subject})
RETURN f.id AS id
