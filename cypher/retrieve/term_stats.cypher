// name: term_stats
// mode: read
// params: terms
// Document frequency of each query term (one full-text count per term; a term with no
// match returns no row), plus the corpus size and total tokens kept in _Meta, for BM25.
MATCH (m:_Meta {id: 'meta'})
WITH coalesce(m.n_docs, 0) AS n_docs, coalesce(m.n_tokens, 0) AS n_tokens
UNWIND $terms AS t
CALL db.idx.fulltext.queryNodes('Artifact', t) YIELD node
RETURN t AS term, count(node) AS df, n_docs, n_tokens
