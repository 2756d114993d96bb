// name: export_entities
// mode: read
// params: after, limit
// Export: one page of entities (every property), keyset-paged by key.
MATCH (e:Entity)
WHERE e.key > $after
RETURN e.key AS key, properties(e) AS props
ORDER BY key
LIMIT $limit
