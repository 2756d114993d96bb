// name: history_by_entity
// mode: read
// params: key, limit
// The memories about one entity (active and superseded), newest $limit, with their
// supersession links: an entity's timeline. No row when the entity does not exist.
MATCH (e:Entity {key: $key})
OPTIONAL MATCH (a:Artifact)-[:REFERENCES]->(e)
WHERE a.status IN ['active', 'superseded']
WITH e, a ORDER BY a.valid_at DESC, a.created_at DESC, coalesce(a.seq, 0) DESC LIMIT $limit
RETURN e.key AS entity,
       CASE WHEN a IS NULL THEN NULL ELSE a {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key, .seq} END AS a,
       [(n:Artifact)-[s:SUPERSEDES]->(a) | {id: n.id, reason: s.reason}] AS replaced_by,
       [(a)-[:SUPERSEDES]->(o:Artifact) | o.id] AS replaced
