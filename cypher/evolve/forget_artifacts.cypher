// name: forget_artifacts
// mode: write
// params: ids
// Erases memories: each node is deleted with its text, embedding (so it leaves the vector
// index), metadata and every link; the keyword statistics in _Meta shrink. Returns what the
// clean-up needs: the entity keys and sessions they touched.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
OPTIONAL MATCH (a)-[:REFERENCES]->(e:Entity)
WITH a, collect(e.key) AS ekeys
WITH collect(a) AS arts, collect(ekeys) AS keysets, count(a) AS n,
     sum(coalesce(a.n_tokens, 0)) AS tokens, collect(a.id) AS gone, collect(a.session_id) AS sessions
FOREACH (x IN arts | DETACH DELETE x)
WITH n, tokens, gone, sessions, reduce(acc = [], ks IN keysets | acc + ks) AS keys
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = coalesce(m.n_docs, 0) - n, m.n_tokens = coalesce(m.n_tokens, 0) - tokens
RETURN n AS deleted, tokens, gone, keys, sessions
