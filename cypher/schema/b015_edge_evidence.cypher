// name: b015_edge_evidence
// mode: write
// params: limit, evidence_max
// Migration 15: one page of RELATED_TO edges written before it (no n_stated). Until then an
// edge's artifact_ids held every memory that stated it: the edge now counts them (n_stated) and
// keeps the latest $evidence_max, and each memory whose id leaves the list keeps the edge on
// itself (a.stated, one "subject key<TAB>relation<TAB>object key" line each), as the write
// path does since (ingest/create_artifacts): erasure reads both (evolve/forget_edges,
// evolve/forget_stated). A memory's new lines are joined into one SET. One atomic query per
// page: a page interrupted half-way is not marked, and is done whole on the next run.
MATCH (s:Entity)-[rel:RELATED_TO]->(o:Entity)
WHERE rel.n_stated IS NULL
WITH s, rel, o LIMIT $limit
WITH s, rel, o, coalesce(rel.artifact_ids, []) AS ids
WITH s, rel, o, ids, size(ids) - $evidence_max AS over
SET rel.n_stated = size(ids), rel.artifact_ids = CASE WHEN over > 0 THEN ids[over..] ELSE ids END
WITH count(rel) AS edges,
     collect(CASE WHEN over > 0 THEN {key: s.key + '\t' + rel.relation + '\t' + o.key, ids: ids[..over]} END) AS pushed
CALL {
  WITH pushed
  UNWIND pushed AS e
  UNWIND e.ids AS id
  WITH id, collect(e.key) AS keys
  MATCH (a:Artifact {id: id})
  SET a.stated = CASE WHEN a.stated IS NULL THEN '' ELSE a.stated + '\n' END
                 + reduce(acc = head(keys), k IN tail(keys) | acc + '\n' + k)
  RETURN count(a) AS memories
}
RETURN edges, memories
