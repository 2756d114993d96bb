// name: export_users
// mode: read
// params: after, limit
// Export: one page of User nodes (every property), keyset-paged by id.
MATCH (n:User)
WHERE n.id > $after
RETURN n.id AS id, properties(n) AS props
ORDER BY id
LIMIT $limit
