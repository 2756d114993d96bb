// name: prune_orphans
// mode: write
// params: limit
// Deletes up to $limit entities that no memory references (left by an interrupted erase).
MATCH (e:Entity)
WHERE indegree(e, 'REFERENCES') = 0
WITH e LIMIT $limit
WITH collect(e) AS dead
WITH dead, [x IN dead | x.key] AS removed
FOREACH (x IN dead | DETACH DELETE x)
RETURN removed
