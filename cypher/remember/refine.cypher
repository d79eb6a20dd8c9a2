// Change a fact's value in place; the former value is kept in its revisions.
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
WHERE f.space = $space
SET f.revisions = coalesce(f.revisions, []) + [row.revision],
    f.value = row.value, f.value_key = row.value_key,
    f.confidence = row.confidence, f.refined_at = $now
RETURN count(f) AS refined
