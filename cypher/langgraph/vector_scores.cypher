// name: vector_scores
// mode: read
// params: vector, scope, skip, limit
// Exact cosine distance from $vector to every active memory whose meta_kv holds every pair of
// $scope (the vectors of the items under a namespace prefix), nearest first: the "vector"
// ranking of the LangGraph store, one page ($skip, $limit) of (id, distance).
MATCH (a:Artifact)
WHERE a.status = 'active' AND all(m IN $scope WHERE m IN a.meta_kv)
WITH a.id AS id, vec.cosineDistance(a.embedding, vecf32($vector)) AS distance
ORDER BY distance ASC, id ASC
SKIP $skip LIMIT $limit
RETURN id, distance
