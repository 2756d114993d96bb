// name: keyword_search
// mode: read
// params: terms, per_term, min_df, common_fraction, max_terms, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// The keyword channel in one round trip: term statistics, the very-common-term cut and the
// full-text candidates. The caller ranks the candidates with BM25 (the engine's score is a
// coarse TF-IDF without length normalisation: it only picks candidates).
// $terms: [{term, df}], each term one sanitised token; df = its document frequency when the
// caller has it cached (falkmem/keyword/stats.py), null to count it here (an empty full-text
// query matches nothing, so a cached term costs no index work).
// The cut: a term in more than max($min_df, $common_fraction * n_docs) memories is dropped
// (its matches cost the most and rank nothing), unless every term is that common: then the
// rarest one stays. At most $max_terms terms are searched.
// Candidates: up to $per_term per kept term, one full-text call per term. One OR query is not
// enough: the engine does not add up the scores of the terms a document matches in a union, so
// with a common and a rare term the documents holding both were cut by the LIMIT among ties.
// Only what BM25 reads is projected (id, text, attribution); the caller fetches the rows of
// the winners. Cut before projecting: projecting every match first made a common term cost
// ~300 ms at 10k memories.
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// $f_*: the search filters (falkmem/retrieval/filters.py; null = no condition), applied before
// the per-term LIMIT, so a selective filter still gets $per_term candidates per term.
MATCH (m:_Meta {id: 'meta'})
WITH coalesce(m.n_docs, 0) AS n_docs, coalesce(m.n_tokens, 0) AS n_tokens
CALL {
  UNWIND $terms AS t
  CALL {
    WITH t
    CALL db.idx.fulltext.queryNodes('Artifact', CASE WHEN t.df IS NULL THEN t.term ELSE '' END) YIELD node
    RETURN count(node) AS counted
  }
  RETURN collect({term: t.term, df: coalesce(t.df, counted)}) AS stats
}
WITH n_docs, n_tokens, stats, [s IN stats WHERE s.df > 0] AS present,
     CASE WHEN $min_df > $common_fraction * n_docs THEN $min_df ELSE $common_fraction * n_docs END AS cut
WITH n_docs, n_tokens, stats, present, [s IN present WHERE s.df <= cut] AS rare
WITH n_docs, n_tokens, stats,
     CASE WHEN size(rare) > 0 THEN rare[0..$max_terms]
          WHEN size(present) = 0 THEN []
          ELSE [reduce(best = head(present), s IN present | CASE WHEN s.df < best.df THEN s ELSE best END)]
     END AS kept
CALL {
  WITH kept
  UNWIND kept AS s
  CALL {
    WITH s
    CALL db.idx.fulltext.queryNodes('Artifact', s.term) YIELD node, score
    WHERE (($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
           AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
      AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
      AND ($f_users IS NULL OR node.user_id IN $f_users)
      AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
      AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
      AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
      AND ($f_since IS NULL OR node.valid_at >= $f_since)
      AND ($f_until IS NULL OR node.valid_at < $f_until)
      AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv))
    WITH node, score
    ORDER BY score DESC
    LIMIT $per_term
    RETURN node
  }
  RETURN collect(DISTINCT node) AS nodes
}
RETURN n_docs, n_tokens, stats, [s IN kept | s.term] AS kept,
       [n IN nodes | n {.id, .text, .attribution}] AS candidates
