// name: select_by_session
// mode: read
// params: session, limit
// Ids of the memories of one session (any status), one page, for forget(session=...).
MATCH (a:Artifact {session_id: $session})
RETURN a.id AS id
LIMIT $limit
