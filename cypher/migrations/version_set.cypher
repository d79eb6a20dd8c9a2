MERGE (v:SchemaVersion {id: 'graph'})
SET v.version = $version, v.name = $name, v.applied_at = datetime()
RETURN v.version AS version
