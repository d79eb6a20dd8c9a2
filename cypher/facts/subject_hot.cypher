// One subject's hot facts (ACTIVE and/or FLAGGED_CONFLICT): a seek of the subject index, so
// the read costs the same in a space of a thousand facts and of a million (facts/hot, with
// its optional subject, reads every hot fact of the space and filters).
MATCH (f:Fact {space: $space, subject: $subject})
USING INDEX f:Fact(space, subject)
WHERE f.status IN $statuses
RETURN f {@include(fragments/fact_columns),
          supersedes_ids: COLLECT { MATCH (f)-[:SUPERSEDES]->(old:Fact) RETURN old.id }} AS fact
ORDER BY f.recorded_at, f.id
