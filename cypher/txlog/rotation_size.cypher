// The size at which the server starts a new transaction log file (an erasure fills the
// current one up to it, so that it rotates and the next checkpoint prunes it).
SHOW SETTINGS YIELD name, value
WHERE name = 'db.tx_log.rotation.size'
RETURN value
