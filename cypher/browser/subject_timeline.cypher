// Neo4j Browser: one subject's timeline, every version with the SUPERSEDES / RETRACTS chain.
// :param space => 'default/default/default/default'
// :param subject => 'alice_role'
MATCH (f:Fact {space: $space, subject: $subject})
OPTIONAL MATCH (f)-[link:SUPERSEDES|RETRACTS]->(older:Fact)
RETURN f, link, older
ORDER BY f.recorded_at
