// Start entities for a question: names matched through the full-text index (case-insensitive).
CALL db.index.fulltext.queryNodes('entity_name', $query) YIELD node, score
WHERE node.space = $space
RETURN node {.*} AS entity, score
LIMIT $limit
