// Read-your-writes for the eventually consistent full-text indexes: waits only while a
// refresh is pending, so it is nearly free when nothing was written since the last one.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
