// name: forget_edges
// mode: write
// params: ids
// Removes the erased memories' evidence from RELATED_TO. Each memory lists the edges it stated
// (a.stated: one "subject key<TAB>relation<TAB>object key" line each, ingest/create_artifacts);
// each such edge counts
// one statement fewer (n_stated), loses the memory's id from its evidence list (artifact_ids,
// the latest ids only) and its weight shrinks in proportion (per-artifact weights are not
// stored); an edge no memory states any more is deleted. The memories' lists are cleared in the
// same query, so a rerun (after a crash before forget_artifacts) counts nothing twice.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
WHERE a.stated IS NOT NULL
WITH a, a.stated AS stated
SET a.stated = NULL
WITH stated
UNWIND split(stated, '\n') AS line
WITH split(line, '\t') AS st
MATCH (:Entity {key: st[0]})-[rel:RELATED_TO {relation: st[1]}]->(:Entity {key: st[2]})
WITH rel, count(*) AS gone
WITH rel, gone, coalesce(rel.n_stated, size(rel.artifact_ids)) AS before
WITH rel, before, before - gone AS left
SET rel.weight = CASE WHEN left <= 0 THEN rel.weight ELSE rel.weight * toFloat(left) / before END,
    rel.n_stated = left,
    rel.artifact_ids = [x IN rel.artifact_ids WHERE NOT x IN $ids]
WITH collect(CASE WHEN left <= 0 THEN rel END) AS dead, sum(CASE WHEN left <= 0 THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
