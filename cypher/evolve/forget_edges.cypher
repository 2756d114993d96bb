// name: forget_edges
// mode: write
// params: ids
// Removes the erased memories' evidence from the RELATED_TO edges whose evidence list holds
// their ids (found through the entities they reference): each occurrence of an erased id leaves
// the list and counts one statement fewer (n_stated), the weight shrinks in proportion
// (per-artifact weights are not stored), and an edge no memory states any more is deleted.
// The statements whose ids were pushed out of a full list are on the memories themselves
// (evolve/forget_stated). Runs before forget_artifacts (the REFERENCES edges lead to the
// edges), and is idempotent (the ids leave the lists), so a crash in between is repaired by a
// rerun.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:REFERENCES]->(:Entity)-[rel:RELATED_TO]-(:Entity)
WHERE id IN rel.artifact_ids
WITH DISTINCT rel
WITH rel, [x IN rel.artifact_ids WHERE NOT x IN $ids] AS keep
WITH rel, keep, coalesce(rel.n_stated, size(rel.artifact_ids)) AS before,
     size(rel.artifact_ids) - size(keep) AS gone
WITH rel, keep, before, before - gone AS left
SET rel.weight = CASE WHEN left <= 0 THEN rel.weight ELSE rel.weight * toFloat(left) / before END,
    rel.n_stated = left,
    rel.artifact_ids = keep
WITH collect(CASE WHEN left <= 0 THEN rel END) AS dead, sum(CASE WHEN left <= 0 THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
