// name: b016_pack_evidence
// mode: write
// params: after, limit, sep, spill_at, keep
// Migration 16 (a backfill, falkmem/storage/backfill.py), and imports of files written before it:
// the RELATED_TO edges leaving one page of entities (paged by internal id, as the export pages
// them) that still keep their stating memories as a list (`artifact_ids`) get them as the two
// strings the write path keeps since (ingest/create_batch: `evidence_old` + `evidence`, ids
// joined by $sep, the newest $keep in `evidence` when there are more than $spill_at); the list
// goes (with `old_ids`, the older part a development build kept as a list). Each page is one atomic query and only converts what is left, so a step interrupted
// half-way resumes. Returns the page's last entity id (null: no entity left) and the edges done.
MATCH (e:Entity)
WHERE id(e) > $after
WITH e ORDER BY id(e) LIMIT $limit
WITH collect(e) AS page, max(id(e)) AS cursor
CALL {
  WITH page
  UNWIND page AS e
  MATCH (e)-[rel:RELATED_TO]->(:Entity)
  WHERE rel.artifact_ids IS NOT NULL
  WITH rel, [x IN coalesce(rel.old_ids, []) + rel.artifact_ids | toString(x)] AS ids
  WITH rel, ids, CASE WHEN size(ids) > $spill_at THEN size(ids) - $keep ELSE 0 END AS cut
  SET rel.evidence = CASE WHEN size(ids) = 0 THEN null ELSE string.join(ids[cut..], $sep) END,
      rel.evidence_old = CASE WHEN cut = 0 THEN null ELSE string.join(ids[..cut], $sep) END,
      rel.artifact_ids = null, rel.old_ids = null
  RETURN count(rel) AS packed
}
RETURN cursor, packed
