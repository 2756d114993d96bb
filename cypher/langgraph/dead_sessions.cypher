// name: dead_sessions
// mode: read
// params: now, item
// Sessions (LangGraph namespaces) whose every store item ($item in meta_kv) has expired at or
// before $now: list_namespaces leaves them out before the sweep deletes them. Only sessions
// holding at least one expired item are looked at.
MATCH (x:Artifact)-[:LG_EXPIRES]->(ex:LgExpiry)
WHERE ex.at <= $now
WITH DISTINCT x.session_id AS sid
MATCH (a:Artifact {session_id: sid})
WHERE a.status = 'active' AND $item IN a.meta_kv
OPTIONAL MATCH (a)-[:LG_EXPIRES]->(e:LgExpiry)
WITH sid, sum(CASE WHEN e IS NULL OR e.at > $now THEN 1 ELSE 0 END) AS live
WHERE live = 0
RETURN sid AS id
