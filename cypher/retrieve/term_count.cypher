// name: term_count
// mode: read
// params: term, count_limit
// How many memories the full-text index matches for one query term, counted up to
// $count_limit (the keyword channel's bound + 1: a term counted at the limit is more common than
// any cut and is dropped), with the corpus size and total tokens kept in _Meta at that moment.
// The full-text call streams its matches in insertion order and stops at the LIMIT, so a count
// reads at most $count_limit postings whatever the tenant's size. One term per statement: in a
// subquery run once per term, the engine's procedure, once cut short by the LIMIT, went on from
// where it stopped for the next term instead of searching it (FalkorDB 4.22.1; both the
// full-text and the vector procedure), so the keyword channel sends one statement per term, all
// in one pipelined round trip (falkmem/storage/executor.py run_many).
MATCH (m:_Meta {id: 'meta'})
WITH coalesce(m.n_docs, 0) AS n_docs, coalesce(m.n_tokens, 0) AS n_tokens
CALL {
  CALL db.idx.fulltext.queryNodes('Artifact', $term) YIELD node
  WITH node LIMIT $count_limit
  RETURN count(node) AS df
}
RETURN df, n_docs, n_tokens
