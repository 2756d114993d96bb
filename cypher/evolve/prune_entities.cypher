// name: prune_entities
// mode: write
// params: keys
// After an erase: each entity's mentions become its remaining REFERENCES; an entity no memory
// references any more is deleted (with any edge left on it). Returns the deleted keys.
UNWIND $keys AS k
MATCH (e:Entity {key: k})
WITH DISTINCT e
WITH e, indegree(e, 'REFERENCES') AS refs
SET e.mentions = refs
WITH collect(CASE WHEN refs = 0 THEN e END) AS dead
WITH dead, [x IN dead | x.key] AS removed
FOREACH (x IN dead | DETACH DELETE x)
RETURN removed
