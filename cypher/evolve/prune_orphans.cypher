// name: prune_orphans
// mode: write
// params: limit
// Deletes up to $limit entities that no memory references (left by an interrupted erase). When
// it deletes any, _Meta.entity_stamp goes up by one (other processes reload their known-entity
// index; see evolve/prune_entities).
MATCH (e:Entity)
WHERE indegree(e, 'REFERENCES') = 0
WITH e LIMIT $limit
WITH collect(e) AS dead
WITH dead, [x IN dead | x.key] AS removed
FOREACH (x IN dead | DETACH DELETE x)
WITH removed
OPTIONAL MATCH (m:_Meta {id: 'meta'})
FOREACH (x IN CASE WHEN m IS NULL OR size(removed) = 0 THEN [] ELSE [m] END |
  SET x.entity_stamp = coalesce(x.entity_stamp, 0) + 1)
RETURN removed, m.entity_stamp AS stamp
