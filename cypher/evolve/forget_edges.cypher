// name: forget_edges
// mode: write
// params: ids, sep, spill_at, keep
// Removes the erased memories' evidence from RELATED_TO: an edge whose evidence (evidence_old +
// evidence: every stating memory's id, joined by $sep; ingest/create_batch) held only erased ids
// is deleted; otherwise the ids leave it, the rest are stored again in order (the newest $keep
// in `evidence` when more than $spill_at are left) and its weight shrinks in proportion
// (per-artifact weights are not stored). Runs before forget_artifacts (the REFERENCES edges lead
// to the edges), and is idempotent, so a crash in between is repaired by a rerun.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:REFERENCES]->(:Entity)-[rel:RELATED_TO]-(:Entity)
WITH DISTINCT rel
WITH rel, CASE WHEN rel.evidence_old IS NULL THEN [] ELSE split(rel.evidence_old, $sep) END
          + CASE WHEN rel.evidence IS NULL THEN [] ELSE split(rel.evidence, $sep) END AS all
WHERE any(x IN all WHERE x IN $ids)
WITH rel, [x IN all WHERE NOT x IN $ids] AS kept, size(all) AS before
WITH rel, kept, before, CASE WHEN size(kept) > $spill_at THEN size(kept) - $keep ELSE 0 END AS cut
SET rel.weight = CASE WHEN size(kept) = 0 THEN rel.weight ELSE rel.weight * toFloat(size(kept)) / before END,
    rel.evidence = string.join(kept[cut..], $sep),
    rel.evidence_old = CASE WHEN cut = 0 THEN null ELSE string.join(kept[..cut], $sep) END
WITH rel, size(kept) = 0 AS empty
WITH collect(CASE WHEN empty THEN rel END) AS dead, sum(CASE WHEN empty THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
