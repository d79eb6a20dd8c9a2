// First of three transactions that rotate the transaction log: `pad` fills the current log
// file past its rotation size.
MERGE (s:LogScrub {id: 'scrub'})
SET s.pad = $pad
RETURN true AS done
