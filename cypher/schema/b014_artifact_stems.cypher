// name: b014_artifact_stems
// mode: read
// params: after, limit
// Migration 14 (a backfill, falkmem/storage/backfill.py): the stem counts (a.stems) of up to
// $limit artifacts after internal node id $after, in id order, to count each stem's documents.
MATCH (a:Artifact)
WHERE id(a) > $after
RETURN id(a) AS cursor, a.stems AS stems
ORDER BY cursor
LIMIT $limit
