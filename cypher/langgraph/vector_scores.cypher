// name: vector_scores
// mode: read
// params: vector, scope, skip, limit
// Exact cosine distance from $vector to every active memory whose meta_kv holds every pair of
// $scope (the vectors of the items under a namespace prefix), nearest first: the "vector"
// ranking of the LangGraph store, one page ($skip, $limit). Each row also carries, read in the
// same query so that a put running meanwhile cannot leave a vector without its item, the
// vector's item memory (`owner`: the id before '#' of a field memory, else the memory itself)
// and the other slot of that item (`sibling`: the id with or without its '~1').
MATCH (a:Artifact)
WHERE a.status = 'active' AND all(m IN $scope WHERE m IN a.meta_kv)
WITH a.id AS id, vec.cosineDistance(a.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC, id ASC
SKIP $skip LIMIT $limit
WITH id, distance, split(id, '#')[0] AS oid
WITH id, distance, oid,
     CASE WHEN oid ENDS WITH '~1' THEN left(oid, size(oid) - 2) ELSE oid + '~1' END AS sid
OPTIONAL MATCH (o:Artifact {id: oid})
OPTIONAL MATCH (s:Artifact {id: sid})
RETURN id, distance,
       o {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at, .valid_at,
          .invalid_at, .metadata, .status, .key} AS owner,
       s {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at, .valid_at,
          .invalid_at, .metadata, .status, .key} AS sibling
