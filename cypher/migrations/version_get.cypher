// The graph schema version, 0 when nothing has been installed yet.
OPTIONAL MATCH (v:SchemaVersion {id: 'graph'})
RETURN coalesce(v.version, 0) AS version
