// name: vector_search
// mode: read
// params: vector, fetch_k, as_of
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// Nearest active artifacts to a query embedding. `distance` is the cosine distance (1 - cos,
// lower is better); callers convert it. Projected properties only: never the embedding.
CALL db.idx.vector.queryNodes('Artifact', 'embedding', $fetch_k, vecf32($vector)) YIELD node, score
WHERE (($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
       AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key} AS a, score AS distance
ORDER BY distance ASC
