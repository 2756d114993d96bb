// name: select_by_filters
// mode: read
// params: limit, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// Ids of the memories (any status) that match the filters, one page, for forget(...filters).
// $f_*: the filters of falkmem/retrieval/filters.py (null = no condition).
MATCH (node:Artifact)
WHERE true
  AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
  AND ($f_users IS NULL OR node.user_id IN $f_users)
  AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
  AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
  AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
  AND ($f_since IS NULL OR node.valid_at >= $f_since)
  AND ($f_until IS NULL OR node.valid_at < $f_until)
  AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv))
RETURN node.id AS id
LIMIT $limit
