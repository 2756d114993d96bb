// name: list_items
// mode: read
// params: scope, skip, limit
// One page of LangGraph store memories, newest first (the order LangGraph's Postgres and SQLite
// stores list by: updated_at descending; each put writes a new memory): the active memories
// whose meta_kv holds every pair of $scope (the store marker, the namespace prefix, value
// equalities).
MATCH (a:Artifact)
WHERE a.status = 'active' AND all(m IN $scope WHERE m IN a.meta_kv)
WITH a ORDER BY a.created_at DESC, a.id DESC
SKIP $skip LIMIT $limit
RETURN a {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key} AS a
