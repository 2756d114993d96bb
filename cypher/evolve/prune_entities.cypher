// name: prune_entities
// mode: write
// params: keys
// After an erase: each entity's mentions become its remaining REFERENCES; an entity no memory
// references any more is deleted (with any edge left on it). Returns the deleted keys. The
// entities or their mention counts changed, so _Meta.entity_stamp goes up by one: another
// process's known-entity index is stale and reloads (admin/read_entity_stamp), as after a write.
UNWIND $keys AS k
MATCH (e:Entity {key: k})
WITH DISTINCT e
WITH e, indegree(e, 'REFERENCES') AS refs
SET e.mentions = refs
WITH collect(CASE WHEN refs = 0 THEN e END) AS dead
WITH dead, [x IN dead | x.key] AS removed
FOREACH (x IN dead | DETACH DELETE x)
WITH removed
OPTIONAL MATCH (m:_Meta {id: 'meta'})
FOREACH (x IN CASE WHEN m IS NULL THEN [] ELSE [m] END |
  SET x.entity_stamp = coalesce(x.entity_stamp, 0) + 1)
RETURN removed, m.entity_stamp AS stamp
