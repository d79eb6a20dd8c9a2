// What a model said each relation of the space means, stored as JSON on its Space node.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.relation_descriptions = $described
RETURN s.relation_descriptions AS described
