// name: b012_session_turns
// mode: read
// params: after, limit
// Migration 12 (a backfill, falkmem/storage/backfill.py): up to $limit sessions after internal
// node id $after that have no turn order yet (Session.last unset: written before memories of a
// session were linked by NEXT edges), each with its memories' ids in turn order: valid_at, then
// created_at, then the write sequence, then id (the order they were written in when the writer
// gave no times).
MATCH (s:Session)
WHERE id(s) > $after
WITH s ORDER BY id(s) LIMIT $limit
OPTIONAL MATCH (s)-[:CONTAINS]->(a:Artifact)
WITH s, a ORDER BY id(s), a.valid_at, a.created_at, coalesce(a.seq, 0), a.id
RETURN id(s) AS cursor, s.id AS session, s.last IS NOT NULL AS ordered, collect(a.id) AS ids
