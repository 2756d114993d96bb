// name: set_meta_kv
// mode: write
// params: rows
// Sets meta_kv (the canonical [key, value] pairs of the metadata; [] when it has none) on the
// given memories: $rows = [{id, kv}].
UNWIND $rows AS r
MATCH (a:Artifact {id: r.id})
SET a.meta_kv = r.kv
RETURN count(a) AS n
