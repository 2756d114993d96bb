// name: forget_edges
// mode: write
// params: ids
// Removes the erased memories' evidence from RELATED_TO: an edge whose evidence (old_ids +
// artifact_ids: every stating memory, see ingest/create_batch) held only erased ids is deleted;
// otherwise the ids leave its lists and its weight shrinks in proportion (per-artifact weights
// are not stored). Runs before forget_artifacts (the REFERENCES edges lead to the edges), and
// is idempotent, so a crash in between is repaired by a rerun.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:REFERENCES]->(:Entity)-[rel:RELATED_TO]-(:Entity)
WHERE id IN rel.artifact_ids OR id IN coalesce(rel.old_ids, [])
WITH DISTINCT rel
WITH rel, [x IN rel.artifact_ids WHERE NOT x IN $ids] AS keep,
     [x IN coalesce(rel.old_ids, []) WHERE NOT x IN $ids] AS keep_old,
     size(rel.artifact_ids) + size(coalesce(rel.old_ids, [])) AS before
WITH rel, keep, keep_old, before, size(keep) + size(keep_old) AS after
SET rel.weight = CASE WHEN after = 0 THEN rel.weight ELSE rel.weight * toFloat(after) / before END,
    rel.artifact_ids = keep,
    rel.old_ids = CASE WHEN size(keep_old) = 0 THEN null ELSE keep_old END
WITH rel, after = 0 AS empty
WITH collect(CASE WHEN empty THEN rel END) AS dead, sum(CASE WHEN empty THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
