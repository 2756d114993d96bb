// name: keyword_search
// mode: read
// params: terms, per_term, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// Full-text candidates, up to $per_term per query term (each term is one sanitised token).
// One OR query is not enough: the engine does not add up the scores of the terms a document
// matches in a union, so with a common and a rare term the documents holding both were cut by
// the LIMIT among ties. The engine's score (coarse TF-IDF, unsorted) only picks candidates;
// the caller ranks them with BM25. Cut before projecting: projecting every match first (text
// included) made a common term cost ~300 ms at 10k memories.
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// $f_*: the search filters (falkmem/retrieval/filters.py; null = no condition), applied before
// the per-term LIMIT, so a selective filter still gets $per_term candidates per term.
UNWIND $terms AS t
CALL {
  WITH t
  CALL db.idx.fulltext.queryNodes('Artifact', t) YIELD node, score
  WHERE (($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
         AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
    AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
    AND ($f_users IS NULL OR node.user_id IN $f_users)
    AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
    AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
    AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
    AND ($f_since IS NULL OR node.valid_at >= $f_since)
    AND ($f_until IS NULL OR node.valid_at < $f_until)
    AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv))
  WITH node, score
  ORDER BY score DESC
  LIMIT $per_term
  RETURN node
}
WITH DISTINCT node
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key, .attribution, .n_tokens} AS a
