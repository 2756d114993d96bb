// name: history_by_key
// mode: read
// params: key, limit
// The versions of one fact key (active and superseded; erased ones are gone), newest $limit,
// with what replaced each one (and why) and what each one replaced.
MATCH (a:Artifact {key: $key})
WHERE a.status IN ['active', 'superseded']
WITH a ORDER BY a.valid_at DESC, a.created_at DESC, coalesce(a.seq, 0) DESC LIMIT $limit
RETURN a {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key, .seq} AS a,
       [(n:Artifact)-[s:SUPERSEDES]->(a) | {id: n.id, reason: s.reason}] AS replaced_by,
       [(a)-[:SUPERSEDES]->(o:Artifact) | o.id] AS replaced
