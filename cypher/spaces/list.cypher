// Every space the graph knows (each writer creates its Space node first).
MATCH (s:Space)
RETURN s.key AS space
ORDER BY s.key
