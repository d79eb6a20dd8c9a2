// Facts recorded between $since and $until, in every space, that have search text but no
// stored vector: the process that wrote them died before its background embedding ran. A
// server's periodic sweep; through the (space, recorded_at) index its cost follows the facts
// recorded in the window, not the size of the graph.
MATCH (s:Space)
CALL {
  WITH s
  MATCH (f:Fact)
  USING INDEX f:Fact(space, recorded_at)
  WHERE f.space = s.key AND f.recorded_at >= $since AND f.recorded_at < $until
    AND f.search_text IS NOT NULL
    AND NOT EXISTS { MATCH (:FactVector {fact_id: f.id}) }
  RETURN f.id AS id
  LIMIT $limit
}
RETURN s.key AS space, collect(id) AS ids
