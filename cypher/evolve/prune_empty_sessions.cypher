// name: prune_empty_sessions
// mode: write
// params: limit
// Deletes up to $limit sessions that contain no memory (maintenance).
MATCH (s:Session)
WHERE outdegree(s, 'CONTAINS') = 0
WITH s LIMIT $limit
WITH collect(s) AS dead
FOREACH (x IN dead | DETACH DELETE x)
RETURN size(dead) AS removed
