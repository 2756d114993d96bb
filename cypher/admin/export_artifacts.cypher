// name: export_artifacts
// mode: read
// params: after, limit
// Export: one page of artifacts, keyset-paged by id: every property (the embedding included)
// and the links that belong to the artifact (REFERENCES out, CONTAINS and PRODUCED in).
MATCH (a:Artifact)
WHERE a.id > $after
WITH a ORDER BY a.id LIMIT $limit
RETURN a.id AS id, properties(a) AS props,
       [(a)-[r:REFERENCES]->(e:Entity) | {key: e.key, props: properties(r)}] AS references,
       [(s:Session)-[r:CONTAINS]->(a) | {id: s.id, props: properties(r)}] AS sessions,
       [(g:Agent)-[r:PRODUCED]->(a) | {id: g.id, props: properties(r)}] AS agents
