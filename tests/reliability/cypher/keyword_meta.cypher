// name: keyword_meta
// mode: read
// params:
// Reliability tests: the tenant's document and token counts as the write path keeps them.
MATCH (m:_Meta {id: 'meta'})
RETURN coalesce(m.n_docs, 0) AS n_docs, coalesce(m.n_tokens, 0) AS n_tokens
