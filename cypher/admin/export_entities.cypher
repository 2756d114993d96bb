// name: export_entities
// mode: read
// params: after, limit
// Export: one page of entities (every property), keyset-paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (e:Entity)
WHERE id(e) > $after
RETURN e.key AS key, properties(e) AS props, id(e) AS cursor
ORDER BY cursor
LIMIT $limit
