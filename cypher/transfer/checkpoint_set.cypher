// An import's progress, moved in the transaction that writes its records (under the space's
// lock), so a re-run after an interruption starts after the last committed record. It moves
// only from where this run left it ($start): another run of the same import in between
// returns no row, and the caller's transaction is rolled back.
MERGE (i:Import {id: $id})
ON CREATE SET i.space = $space, i.mode = $mode, i.source = $source, i.remap = $remap,
              i.started_at = $now, i.written = 0
WITH i
WHERE coalesce(i.line, 0) = $start
SET i.line = $line, i.done = $done, i.updated_at = $now, i.written = i.written + $written
RETURN i.line AS line
