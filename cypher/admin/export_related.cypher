// name: export_related
// mode: read
// params: after, limit
// Export: the outgoing RELATED_TO edges (every property) of one page of entities, paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (e:Entity)
WHERE id(e) > $after
WITH e ORDER BY id(e) LIMIT $limit
RETURN id(e) AS cursor, e.key AS key, [(e)-[r:RELATED_TO]->(o:Entity) | {dst: o.key, props: properties(r)}] AS edges
