// name: export_sessions
// mode: read
// params: after, limit
// Export: one page of Session nodes (every property), keyset-paged by id.
MATCH (n:Session)
WHERE n.id > $after
RETURN n.id AS id, properties(n) AS props
ORDER BY id
LIMIT $limit
