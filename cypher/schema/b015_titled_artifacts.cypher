// name: b015_titled_artifacts
// mode: read
// params: after, limit, nl
// Migration 15 (a backfill, falkmem/storage/backfill.py): up to $limit artifacts after internal
// node id $after that may have a title line (no speaker: not a chat turn; a line break in the
// text, $nl), with their text. Python reads the title (extraction/head.py) and its entity
// (extraction/rules.title_entity).
MATCH (a:Artifact)
WHERE id(a) > $after AND a.speaker IS NULL AND a.text CONTAINS $nl
WITH a ORDER BY id(a) LIMIT $limit
RETURN id(a) AS cursor, a.id AS id, a.text AS text
