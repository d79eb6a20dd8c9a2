// Third: one transaction in the new log file, so the one holding the erased values is no
// longer the latest and the next checkpoint prunes it.
MATCH (s:LogScrub)
DETACH DELETE s
RETURN count(s) AS n
