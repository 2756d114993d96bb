// name: vector_filtered
// mode: read
// params: vector, k, scan, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// Exact filtered nearest neighbours, selected through the graph first: the artifacts that pass
// the filters (range indexes serve session/user/agent/status), scored by exact cosine
// distance, only when fewer than $scan pass (the scan stops at $scan). One row: `n`, how many passed
// (up to $scan), and `hits`, empty when $scan or more passed (the caller then grows the kNN fetch).
// $as_of and $f_* as in vector_search.
MATCH (node:Artifact)
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
WITH node LIMIT $scan
WITH collect(node) AS nodes
WITH nodes, size(nodes) AS n
CALL {
  WITH nodes, n
  UNWIND CASE WHEN n < $scan THEN nodes ELSE [] END AS x
  WITH x, vec.cosineDistance(x.embedding, vecf32($vector)) AS distance
  ORDER BY distance ASC
  LIMIT $k
  RETURN collect({a: x {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
                        .valid_at, .invalid_at, .metadata, .status, .key}, distance: distance}) AS hits
}
RETURN n, hits
