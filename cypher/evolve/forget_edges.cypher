// name: forget_edges
// mode: write
// params: ids
// Removes the erased memories' evidence from RELATED_TO: an edge whose artifact_ids held only
// erased ids is deleted; otherwise the ids leave its list and its weight shrinks in proportion
// (per-artifact weights are not stored). Runs before forget_artifacts (the REFERENCES edges
// lead to the edges), and is idempotent, so a crash in between is repaired by a rerun.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:REFERENCES]->(:Entity)-[rel:RELATED_TO]-(:Entity)
WHERE id IN rel.artifact_ids
WITH DISTINCT rel
WITH rel, [x IN rel.artifact_ids WHERE NOT x IN $ids] AS keep, size(rel.artifact_ids) AS before
SET rel.weight = CASE WHEN size(keep) = 0 THEN rel.weight ELSE rel.weight * toFloat(size(keep)) / before END,
    rel.artifact_ids = keep
WITH rel, size(keep) = 0 AS empty
WITH collect(CASE WHEN empty THEN rel END) AS dead, sum(CASE WHEN empty THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
