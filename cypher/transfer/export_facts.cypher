// Export: every fact of a space in recording order (its slot and value break ties between
// facts of one write), $page facts to a row (one driver record per page, not per fact), with
// its links and the instant each was made. `f {.*}` reads a fact's property chain once, where
// naming each property on the node walks the chain again for each (and to its end for every
// one the fact lacks); the second projection picks from that map in memory the properties an
// export carries (never the embedding, the vector sequence or text derived from the value).
// Times travel as ISO text (a datetime the driver builds costs far more than the text).
MATCH (f:Fact {space: $space})
WITH f ORDER BY f.recorded_at, f.subject, f.scope, f.value, f.id
WITH collect(f) AS facts
UNWIND range(0, size(facts) - 1, $page) AS start
RETURN [p IN [f IN facts[start..start + $page] |
              f {.*, links: [(f)-[r:SUPERSEDES|RETRACTS]->(o:Fact) |
                             [type(r), o.id, toString(r.at)]]}] |
        p {.id, .subject, .scope, .value, .status, .kind, .time_ref, .confidence, .source,
           .source_ref, .raw, .metadata, .category, .head, .relation, .tail, .head_type,
           .tail_type, .head_key, .tail_key, .cardinality, .action, .proposed_action,
           .archived, .coexist, .message_key, .revisions, .links,
           valid_from: toString(p.valid_from), valid_to: toString(p.valid_to),
           held_from: toString(p.held_from), recorded_at: toString(p.recorded_at),
           retired_at: toString(p.retired_at), refined_at: toString(p.refined_at)}] AS facts
