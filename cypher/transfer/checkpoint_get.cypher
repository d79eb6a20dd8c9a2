// Where an import into a space stands: the last record it wrote and whether it finished.
MATCH (i:Import {id: $id})
WHERE i.space = $space
RETURN i {.id, .space, .mode, .source, .line, .done, .remap, .written} AS checkpoint
