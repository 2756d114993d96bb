// name: select_by_user
// mode: read
// params: user, limit
// Ids of the memories of one user (any status), one page, for forget(user=...).
MATCH (a:Artifact {user_id: $user})
RETURN a.id AS id
LIMIT $limit
