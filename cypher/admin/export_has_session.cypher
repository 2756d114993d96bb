// name: export_has_session
// mode: read
// params: after, limit
// Export: the HAS_SESSION edges (every property) of one page of users, paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (u:User)
WHERE id(u) > $after
WITH u ORDER BY id(u) LIMIT $limit
RETURN id(u) AS cursor, u.id AS key, [(u)-[r:HAS_SESSION]->(s:Session) | {dst: s.id, props: properties(r)}] AS edges
