// Rebuild, step 3: the space's facts in recording order, a page after the cursor.
MATCH (f:Fact {space: $space})
WHERE $after_at IS NULL OR f.recorded_at > $after_at
   OR (f.recorded_at = $after_at AND f.id > $after_id)
RETURN f {.*} AS fact
ORDER BY f.recorded_at, f.id
LIMIT $limit
