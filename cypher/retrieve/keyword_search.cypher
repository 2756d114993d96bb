// name: keyword_search
// mode: read
// params: query, limit, as_of
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// Full-text candidates for a sanitised token query (tok1|tok2|...). The engine's score is a
// coarse TF-IDF and its results come unsorted and unbounded: order and cut here; the caller
// rescores the candidates with BM25. Cut before projecting: projecting every match first
// (text included) made a common term cost ~300 ms at 10k memories.
CALL db.idx.fulltext.queryNodes('Artifact', $query) YIELD node, score
WHERE (($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
       AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key, .attribution, .n_tokens} AS a, score
