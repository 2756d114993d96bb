// name: forget_stated
// mode: write
// params: ids
// Removes the erased memories' statements that were pushed out of a full evidence list: each
// memory keeps those edges in a.stated, one "subject key<TAB>relation<TAB>object key" line each
// (ingest/create_artifacts). Each line counts one statement fewer on its edge (n_stated), the
// weight shrinks in proportion, and an edge no memory states any more is deleted. The lists
// are cleared in the same query, so a rerun counts nothing twice. Runs after forget_edges.
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
WITH rel, coalesce(rel.n_stated, size(rel.artifact_ids)) AS before, gone
WITH rel, before, before - gone AS left
SET rel.weight = CASE WHEN left <= 0 THEN rel.weight ELSE rel.weight * toFloat(left) / before END,
    rel.n_stated = left
WITH collect(CASE WHEN left <= 0 THEN rel END) AS dead, sum(CASE WHEN left <= 0 THEN 0 ELSE 1 END) AS updated
FOREACH (r IN dead | DELETE r)
RETURN size(dead) AS removed, updated
