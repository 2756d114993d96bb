// name: prune_sessions
// mode: write
// params: ids
// Deletes the given sessions when they contain no memory any more (with their HAS_SESSION links).
UNWIND $ids AS sid
MATCH (s:Session {id: sid})
WHERE outdegree(s, 'CONTAINS') = 0
WITH collect(DISTINCT s) AS dead
FOREACH (x IN dead | DETACH DELETE x)
RETURN size(dead) AS removed
