// Export: every fact of a space in recording order (its slot and value break ties between
// facts of one write), $page facts to a row (one driver record per page, not per fact), each
// fact a list of its values in the order of records.FACT_ROW (a list travels and unpacks in
// about half the time of a map naming each value), its links (SUPERSEDES, RETRACTS,
// RESTORES) as [type, target, at].
// `f {.*}` reads a fact's property chain once, where naming each property on the node walks
// the chain again for each (and to its end for every one the fact lacks); the values are
// then picked from that map in memory (never the text derived from the value). A fact that
// took its write's text reads it from the write's Message. Times travel as ISO text (a
// datetime the driver builds costs far more than the text).
MATCH (f:Fact {space: $space})
WITH f ORDER BY f.recorded_at, f.subject, f.scope, f.value, f.id
WITH collect(f) AS facts
UNWIND range(0, size(facts) - 1, $page) AS start
RETURN [p IN [f IN facts[start..start + $page] |
              f {.*, links: [(f)-[r:SUPERSEDES|RETRACTS|RESTORES]->(o:Fact) |
                             [type(r), o.id, toString(r.at)]],
                 raw: CASE WHEN f.message_id IS NULL THEN f.raw
                           ELSE COLLECT { MATCH (m:Message {id: f.message_id})
                                          RETURN m.text }[0] END}] |
        [p.id, p.subject, p.scope, p.value, p.status, p.kind, p.time_ref, p.confidence,
         p.source, p.source_ref, p.raw, p.category, p.head, p.relation, p.tail, p.head_type,
         p.tail_type, p.head_key, p.tail_key, p.cardinality, p.action, p.proposed_action,
         p.archived, p.coexist, p.message_key, p.undone_by, p.metadata, p.revisions, p.links,
         toString(p.valid_from), toString(p.valid_to), toString(p.held_from),
         toString(p.recorded_at), toString(p.retired_at), toString(p.refined_at),
         toString(p.undone_at)]] AS facts
