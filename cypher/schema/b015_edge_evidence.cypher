// name: b015_edge_evidence
// mode: write
// params: limit, evidence_max
// Migration 15: one page of RELATED_TO edges written before it (no n_stated). Until then an
// edge's artifact_ids held every memory that stated it: the edge now counts them (n_stated) and
// keeps the latest $evidence_max, and each of those memories lists the edge among the ones it
// stated (a.stated, one "subject key<TAB>relation<TAB>object key" line each), which is how an
// erase finds it since (evolve/forget_edges). Appends to a
// memory's list are grouped per memory (one SET each). One atomic query per page: a page
// interrupted half-way is not marked, and is done whole on the next run.
MATCH (s:Entity)-[rel:RELATED_TO]->(o:Entity)
WHERE rel.n_stated IS NULL
WITH s, rel, o LIMIT $limit
WITH s, rel, o, coalesce(rel.artifact_ids, []) AS ids
SET rel.n_stated = size(ids), rel.artifact_ids = ids[-$evidence_max..]
WITH collect({key: s.key + '\t' + rel.relation + '\t' + o.key, ids: ids}) AS edges
CALL {
  WITH edges
  UNWIND edges AS e
  UNWIND e.ids AS id
  WITH id, collect(e.key) AS keys
  MATCH (a:Artifact {id: id})
  SET a.stated = CASE WHEN a.stated IS NULL THEN '' ELSE a.stated + '\n' END
                 + reduce(acc = head(keys), k IN tail(keys) | acc + '\n' + k)
  RETURN count(a) AS memories
}
RETURN size(edges) AS edges, memories
