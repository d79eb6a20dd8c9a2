// The write counter of each space: every write transaction bumps it under the space's lock
// (spaces/lock, spaces/lock_with_policy), so a changed counter means committed changes.
UNWIND $spaces AS key
OPTIONAL MATCH (s:Space {key: key})
RETURN key AS space, coalesce(s.writes, 0) AS writes
