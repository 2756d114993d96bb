// name: export_next
// mode: read
// params: after, limit
// Export: the outgoing NEXT edges (turn order) of one page of artifacts, paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property).
MATCH (a:Artifact)
WHERE id(a) > $after
WITH a ORDER BY id(a) LIMIT $limit
RETURN id(a) AS cursor, a.id AS key, [(a)-[r:NEXT]->(b:Artifact) | {dst: b.id, props: properties(r)}] AS edges
