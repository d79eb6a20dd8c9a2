// One hop of the question-guided path search. Around each frontier entity: its outgoing
// projection edges (an entity heads few), and its incoming ones of the relation types the
// search asks for (`f.incoming`; every type when `f.all_incoming`), each grouped by type and
// direction with at most $per_group edges and the entity at the other end. Only edges of
// the graph read count: the current ones, or those held at $as_of, or true in the world at
// $valid_at. An entity's incoming edges can number thousands (every employee of a company):
// for a current read they are counted by type in one pass that reads no property, and of
// each type the first $probe are read and filtered (those retired dropped); a read of
// another time filters every incoming edge of the types asked for.
UNWIND $frontier AS f
MATCH (e:Entity {space: $space, key: f.key})
CALL (e) {
  MATCH (e)-[r]->(n:Entity)
  WHERE @include(fragments/edge_held)
  WITH type(r) AS type, count(*) AS size, collect([r, n])[..$per_group] AS sample
  RETURN collect({type: type, forward: true, size: size, sample: sample}) AS outgoing
}
CALL (e, f) {
  WITH e, f WHERE f.all_incoming OR size(f.incoming) > 0
  MATCH (e)<-[r]-()
  WHERE (type(r) IN f.incoming OR (f.all_incoming AND type(r) <> 'ABOUT'))
    AND CASE WHEN $as_of IS NULL AND $valid_at IS NULL THEN true
             ELSE @include(fragments/edge_held) END
  WITH type(r) AS type, count(*) AS size, collect(r)[..$probe] AS probed
  CALL (type, probed) {
    UNWIND probed AS r
    MATCH (n:Entity)-[r]->()
    WHERE @include(fragments/edge_held)
    RETURN collect([r, n])[..$per_group] AS sample
  }
  RETURN collect({type: type, forward: false, size: size, sample: sample}) AS incoming
}
UNWIND outgoing + incoming AS g
RETURN e {.key, .type, .name} AS entity,
       collect({type: g.type, forward: g.forward, size: g.size, edges: [s IN g.sample | {
         fact_id: s[0].fact_id, relation: s[0].relation, status: s[0].status,
         confidence: s[0].confidence, subject: s[0].subject,
         other: {key: s[1].key, type: s[1].type, name: s[1].name}}]}) AS groups
