// name: export_has_session
// mode: read
// params: after, limit
// Export: the HAS_SESSION edges (every property) of one page of users, paged by id.
MATCH (u:User)
WHERE u.id > $after
WITH u ORDER BY u.id LIMIT $limit
RETURN u.id AS key, [(u)-[r:HAS_SESSION]->(s:Session) | {dst: s.id, props: properties(r)}] AS edges
