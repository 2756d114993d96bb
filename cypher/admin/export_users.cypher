// name: export_users
// mode: read
// params: after, limit
// Export: one page of User nodes (every property), keyset-paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (n:User)
WHERE id(n) > $after
RETURN n.id AS id, properties(n) AS props, id(n) AS cursor
ORDER BY cursor
LIMIT $limit
