// What to embed after writes, of one space or several: the text of each fact they created or
// refined ($items: {space, id}).
UNWIND $items AS item
MATCH (f:Fact {id: item.id})
WHERE f.space = item.space
RETURN f.space AS space, f.id AS id, f.subject AS subject, f.scope AS scope, f.value AS value
