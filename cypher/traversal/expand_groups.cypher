// One hop of the question-guided path search. Around each frontier entity: its outgoing
// projection edges (an entity heads few), and the incoming ones of the relation types the
// search asks for (`f.incoming`; every type when `f.all_incoming`), each grouped by type and
// direction with at most $per_group edges and the entity at the other end. An incoming group
// reads at most $probe edges, so a hub's thousands of edges of one relation cost $probe rows
// and its size is reported as $probe at most. Only edges of the graph read are counted: the
// current ones, or those held at $as_of, or true in the world at $valid_at.
UNWIND $frontier AS f
MATCH (e:Entity {space: $space, key: f.key})
CALL (e) {
  MATCH (e)-[r]->(n:Entity)
  WHERE @include(fragments/edge_held)
  WITH type(r) AS type, count(*) AS size, collect([r, n])[..$per_group] AS sample
  RETURN collect({type: type, forward: true, size: size, sample: sample}) AS outgoing
}
CALL (e, f) {
  WITH e, f WHERE f.all_incoming
  MATCH (e)<-[r:!ABOUT]-(n:Entity)
  WHERE @include(fragments/edge_held)
  WITH type(r) AS type, count(*) AS size, collect([r, n])[..$per_group] AS sample
  RETURN collect({type: type, forward: false, size: size, sample: sample}) AS everything
}
CALL (e, f) {
  UNWIND CASE WHEN f.all_incoming THEN [] ELSE f.incoming END AS type
  CALL (e, type) {
    MATCH (e)<-[r:$(type)]-(n:Entity)
    WHERE @include(fragments/edge_held)
    RETURN r, n
    LIMIT $probe
  }
  WITH type, collect([r, n]) AS found
  RETURN collect({type: type, forward: false, size: size(found),
                  sample: found[..$per_group]}) AS asked
}
UNWIND outgoing + everything + asked AS g
RETURN e {.key, .type, .name} AS entity,
       collect({type: g.type, forward: g.forward, size: g.size, edges: [s IN g.sample | {
         fact_id: s[0].fact_id, relation: s[0].relation, status: s[0].status,
         confidence: s[0].confidence, subject: s[0].subject,
         other: {key: s[1].key, type: s[1].type, name: s[1].name}}]}) AS groups
