// name: keyword_search
// mode: read
// params: query, limit
// Full-text candidates for a sanitised token query (tok1|tok2|...). The engine's score is a
// coarse TF-IDF and its results come unsorted and unbounded: order and cut here; the caller
// rescores the candidates with BM25.
CALL db.idx.fulltext.queryNodes('Artifact', $query) YIELD node, score
WHERE node.status = 'active'
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key, .attribution, .n_tokens} AS a, score
ORDER BY score DESC
LIMIT $limit
