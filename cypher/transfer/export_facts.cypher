// Export: every fact of a space in recording order (its slot and value break ties between
// facts of one write), $page facts to a row (one driver record per page, not per fact), with
// its links and the instant each was made. `f {.*}` reads a fact's property chain once, where
// naming each of the thirty-odd properties walks it again for each (and to its end for every
// one the fact lacks); the second projection works on that map in memory. What an export
// never carries is set to null so it does not travel: the embedding, the vector sequence,
// text derived from the value, the space key (the caller knows it), the derived relation
// keys. Times travel as ISO text (a datetime the driver builds costs far more than the text).
MATCH (f:Fact {space: $space})
WITH f ORDER BY f.recorded_at, f.subject, f.scope, f.value, f.id
WITH collect(f) AS facts
UNWIND range(0, size(facts) - 1, $page) AS start
RETURN [p IN [f IN facts[start..start + $page] |
              f {.*, links: [(f)-[r:SUPERSEDES|RETRACTS]->(o:Fact) |
                             [type(r), o.id, toString(r.at)]]}] |
        p {.*, embedding: null, vector_seq: null, search_text: null, value_key: null,
           space: null, rel_type: null, rel_key: null, entity_keys: null, valid_to_at: null,
           valid_from: toString(p.valid_from), valid_to: toString(p.valid_to),
           held_from: toString(p.held_from), recorded_at: toString(p.recorded_at),
           retired_at: toString(p.retired_at), refined_at: toString(p.refined_at)}] AS facts
