// name: b011_set_stems
// mode: write
// params: rows
// Migration 11: stores the stem counts computed in Python for one page of artifacts
// ($rows: [{id, stems}]; falkmem/keyword/stem.py stem_bag).
UNWIND $rows AS r
MATCH (a:Artifact {id: r.id})
SET a.stems = r.stems
RETURN count(a) AS updated
