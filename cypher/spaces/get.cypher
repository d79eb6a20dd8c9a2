// One space by key, when something wrote to it.
MATCH (s:Space {key: $space})
RETURN s.key AS space, toString(s.created_at) AS created_at
