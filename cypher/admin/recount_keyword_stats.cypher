// name: recount_keyword_stats
// mode: write
// params:
// Sets the BM25 corpus statistics of the tenant's metadata from its artifacts: n_docs (every
// artifact, as create_artifacts and forget_artifacts count them) and n_tokens (the sum of their
// indexed lengths). An import writes artifacts without going through create_artifacts, so it
// recounts once at the end (before, imported tenants ranked with N = 0).
OPTIONAL MATCH (a:Artifact)
WITH count(a) AS n, sum(coalesce(a.n_tokens, 0)) AS tokens
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = n, m.n_tokens = tokens
RETURN m.n_docs AS n_docs, m.n_tokens AS n_tokens
