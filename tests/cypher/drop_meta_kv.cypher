// name: drop_meta_kv
// mode: write
// params:
// Test support: remove every artifact's meta_kv, as memories written before metadata filters look.
MATCH (a:Artifact)
REMOVE a.meta_kv
RETURN count(a) AS n
