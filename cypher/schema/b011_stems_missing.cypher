// name: b011_stems_missing
// mode: read
// params: limit
// Migration 11 (a backfill, falkmem/storage/backfill.py): up to $limit artifacts written
// before artifacts stored their stem counts (a.stems, read by the keyword channel's BM25),
// with the text the counts are computed from (the memory's text and its attribution).
MATCH (a:Artifact)
WHERE a.stems IS NULL
RETURN a.id AS id, a.text AS text, a.attribution AS attribution
LIMIT $limit
