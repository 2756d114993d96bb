// name: export_artifacts
// mode: read
// params: after, limit
// Export: one page of artifacts, keyset-paged by internal node id
// (admin/transfer.py::_pages says why not by the id or key property): every property (the embedding included)
// and the links that belong to the artifact (REFERENCES out, CONTAINS and PRODUCED in).
MATCH (a:Artifact)
WHERE id(a) > $after
WITH a ORDER BY id(a) LIMIT $limit
RETURN id(a) AS cursor, a.id AS id, properties(a) AS props,
       [(a)-[r:REFERENCES]->(e:Entity) | {key: e.key, props: properties(r)}] AS references,
       [(s:Session)-[r:CONTAINS]->(a) | {id: s.id, props: properties(r)}] AS sessions,
       [(g:Agent)-[r:PRODUCED]->(a) | {id: g.id, props: properties(r)}] AS agents
