// name: list_page
// mode: read
// params: after_created, after_id, limit, history, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// One page of a tenant's memories, oldest first (created_at, then id), after the cursor
// ($after_created, $after_id; nulls = from the start). $history: superseded memories too.
// $f_*: the filters of falkmem/retrieval/filters.py (null = no condition).
// The cursor's own memory gives the exact created_at (a float read back through the driver can
// come back rounded); $after_created is the fallback when that memory was erased meanwhile.
OPTIONAL MATCH (last:Artifact {id: $after_id})
WITH coalesce(last.created_at, $after_created) AS after
MATCH (node:Artifact)
WHERE (node.status = 'active' OR ($history AND node.status = 'superseded'))
  AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
  AND ($f_users IS NULL OR node.user_id IN $f_users)
  AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
  AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
  AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
  AND ($f_since IS NULL OR node.valid_at >= $f_since)
  AND ($f_until IS NULL OR node.valid_at < $f_until)
  AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv))
  AND (after IS NULL OR node.created_at > after OR (node.created_at = after AND node.id > $after_id))
WITH node ORDER BY node.created_at ASC, node.id ASC LIMIT $limit
RETURN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
             .valid_at, .invalid_at, .metadata, .status, .key} AS a
