// name: export_related
// mode: read
// params: after, limit
// Export: the outgoing RELATED_TO edges (every property) of one page of entities, paged by key.
MATCH (e:Entity)
WHERE e.key > $after
WITH e ORDER BY e.key LIMIT $limit
RETURN e.key AS key, [(e)-[r:RELATED_TO]->(o:Entity) | {dst: o.key, props: properties(r)}] AS edges
