// name: export_agents
// mode: read
// params: after, limit
// Export: one page of Agent nodes (every property), keyset-paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (n:Agent)
WHERE id(n) > $after
RETURN n.id AS id, properties(n) AS props, id(n) AS cursor
ORDER BY cursor
LIMIT $limit
