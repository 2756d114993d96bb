// name: export_supersedes
// mode: read
// params: after, limit
// Export: the outgoing SUPERSEDES edges (every property) of one page of artifacts, paged by id.
MATCH (a:Artifact)
WHERE a.id > $after
WITH a ORDER BY a.id LIMIT $limit
RETURN a.id AS key, [(a)-[r:SUPERSEDES]->(b:Artifact) | {dst: b.id, props: properties(r)}] AS edges
