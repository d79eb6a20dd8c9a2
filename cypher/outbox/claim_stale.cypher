// The spaces whose oldest pending entry has waited past the lease ($stale: its writer died, or
// cannot reach the relational store), claimed for $holder's sweep until $until unless another
// holder's sweep claim on the space is still live. Setting `sweep_lock` first takes the Space
// node's write lock, so the claim is read as last committed: two sweepers never both claim a
// space. A space without a Space node has nothing to hold a claim and is returned as it is.
MATCH (o:Outbox)
WHERE o.done = false AND o.created_at < $stale
WITH DISTINCT o.space AS key
OPTIONAL MATCH (s:Space {key: key})
WITH key, s
WHERE s IS NULL OR s.mirror IS NULL OR s.mirror = $store
WITH key, s
LIMIT $limit
FOREACH (node IN CASE WHEN s IS NULL THEN [] ELSE [s] END | SET node.sweep_lock = true)
WITH key, s,
     s IS NULL OR s.sweep_holder IS NULL OR s.sweep_holder = $holder OR s.sweep_until < $now
     AS mine
FOREACH (node IN CASE WHEN s IS NULL THEN [] ELSE [s] END | REMOVE node.sweep_lock)
WITH key, s, mine
WHERE mine
FOREACH (node IN CASE WHEN s IS NULL THEN [] ELSE [s] END |
  SET node.sweep_holder = $holder, node.sweep_until = $until)
RETURN key AS space
ORDER BY space
