// name: vector_search
// mode: read
// params: vector, fetch_k
// Nearest active artifacts to a query embedding. `distance` is the cosine distance (1 - cos,
// lower is better); callers convert it. Projected properties only: never the embedding.
CALL db.idx.vector.queryNodes('Artifact', 'embedding', $fetch_k, vecf32($vector)) YIELD node, score
WHERE node.status = 'active'
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key} AS a, score AS distance
ORDER BY distance ASC
