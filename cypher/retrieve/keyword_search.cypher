// name: keyword_search
// mode: read
// params: terms, narrowed, per_term, min_df, common_fraction, max_df, fetch_max_df, fetch_pairs, max_terms, k, full, k1, b, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// The keyword channel: the very-common-term cut, the full-text candidates and their Okapi BM25
// ranking; it returns the rows of the $k best.
// $terms: [{term, stem}], one per distinct stem: a sanitised token and its Snowball stem (the
// index stems both sides). A term's document frequency is its stem's _Term.df: how many
// memories' stem counts hold it, kept by every write (ingest/create_artifacts,
// evolve/forget_artifacts; schema migration 14 for older tenants): one index lookup per term,
// whatever the tenant's size (counting a term's matches in the full-text index read up to
// $max_df of them: 13 ms a question at 100,000 chat turns, docs/performance.md).
// The cut: a term in more than max($min_df, $common_fraction * n_docs) memories, or in more than
// $max_df, is dropped (its matches cost the most and rank little), unless every term is that
// common: then the rarest one of at most $max_df memories stays. At most $max_terms terms are
// searched, so what one search reads is bounded by the number of terms times $max_df (and by
// $fetch_max_df, below), whatever the tenant's size.
// Candidates: up to $per_term per kept term of at most $fetch_max_df memories (when no kept term
// is that rare, the rarest one), one full-text call per term, ordered by the engine's score: a
// kept term more common than that still scores the candidates the others bring, but does not
// bring its own (the engine reads every match of a term to order them). Instead, the first
// $fetch_pairs pairs of such terms (in the question's order) each bring up to $per_term memories
// that hold both ("a b" is an intersection in the engine, and only its matches are ordered: at
// 100,000 chat turns the top 100 of "activities evening" (903 matches) took 2.1 ms, of each term
// alone (5,000 and 6,569) 6.1 and 7.8 ms). A memory with two of the question's common words is what BM25 ranks above one with
// one; the pairs found more of the gold than the common terms alone did (docs/performance.md). (The comprehensions
// name their element x: one named s like the UNWIND after it hung the server, FalkorDB 4.22.1.) One OR query is not enough: the engine does not add up the scores of the
// terms a document matches in a union, so with a common and a rare term the documents holding
// both were cut by the LIMIT among ties. The engine's score only picks candidates: it is a
// coarse TF-IDF without length normalisation. (ORDER BY reads each call to its end, so the
// engine's procedure is never cut short here: one cut short by a LIMIT inside a subquery run once
// per term went on with the previous term's matches, FalkorDB 4.22.1.)
// BM25 (Lucene idf, $k1, $b) on each candidate's stored stem counts (a.stems, written with the
// artifact: " stem:count stem:count ... ", falkmem/keyword/stem.py stem_bag) and length
// (a.n_tokens); the formula and float order of falkmem/keyword/bm25.py, terms summed in the order
// given. Its repairs (N at least the number of candidates, a term's df at least the number of
// candidates holding it) are not needed here: N and df are the stored counts, written in the same
// atomic queries as the memories, so no candidate set exceeds them (when df was the index's count
// of a word, the df repair re-read every candidate's stems per term, ~1 ms a search). A count
// is read with split/left: splitting a whole bag into its items made the scoring 7x slower (8 ms
// for 370 candidates). Ties go to the smaller id.
// Only the $k winners are returned, the $full best of them projected whole (never the
// embedding), the rest as {id, valid_at, speaker, session_id} (see vector_search). `mass` is the sum of the
// kept terms' idf: the score of a memory that holds each term once at the average length, what
// fusion measures BM25 against (a rare-word question's best match scores near it, a long
// question's partial matches far below it). `held` is the idf of the kept terms a winner holds
// (at any count): held / mass is the share of the question's rare words it has, what a hit's
// relevance reads (falkmem/ranking/relevance.py).
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// $f_*: the search filters (falkmem/retrieval/filters.py; null = no condition), applied before
// the per-term LIMIT, so a selective filter still gets $per_term candidates per term.
// `admit_all`: nothing narrows the search ($narrowed: a filter or $as_of, set by the caller from
// Filters.active, the one definition of the filters) and no superseded memory is in the tenant
// (one range-index probe; a memory's status is 'active' or 'superseded', erased ones are
// deleted), so every match is
// admitted without reading its properties: the per-match status read and condition checks
// were ~1 us a match, 3.6 ms of a search at 100,000 chat turns (docs/performance.md). FalkorDB
// evaluates `admit_all OR (...)` left to right and stops at a true `admit_all`.
MATCH (m:_Meta {id: 'meta'})
WITH coalesce(m.n_docs, 0) AS n_docs, coalesce(m.n_tokens, 0) AS n_tokens
CALL {
  OPTIONAL MATCH (x:Artifact {status: 'superseded'})
  WITH x LIMIT 1
  RETURN x IS NULL AS current
}
WITH n_docs, n_tokens, current AND NOT $narrowed AS admit_all
CALL {
  UNWIND range(0, size($terms) - 1) AS pos
  WITH pos, $terms[pos] AS want
  OPTIONAL MATCH (d:_Term {stem: want.stem})
  WITH pos, want, coalesce(d.df, 0) AS df ORDER BY pos
  RETURN collect({term: want.term, stem: want.stem, df: df}) AS counted
}
WITH n_docs, n_tokens, admit_all, [s IN counted WHERE s.df > 0 AND s.df <= $max_df] AS present,
     CASE WHEN $min_df > $common_fraction * n_docs THEN $min_df ELSE $common_fraction * n_docs END AS cut
WITH n_docs, n_tokens, admit_all, present, [s IN present WHERE s.df <= cut] AS rare
WITH n_docs, n_tokens, admit_all,
     CASE WHEN size(rare) > 0 THEN rare[0..$max_terms]
          WHEN size(present) = 0 THEN []
          ELSE [reduce(best = head(present), s IN present | CASE WHEN s.df < best.df THEN s ELSE best END)]
     END AS kept
CALL {
  WITH kept, admit_all
  WITH kept, admit_all, [x IN kept WHERE x.df <= $fetch_max_df] AS selective
  WITH kept, admit_all, selective, [x IN kept WHERE x.df > $fetch_max_df] AS common
  WITH kept, admit_all, selective,
       reduce(acc = [], i IN range(0, size(common) - 2) |
              acc + [j IN range(i + 1, size(common) - 1) | {term: common[i].term + ' ' + common[j].term}])[0..$fetch_pairs] AS pairs
  WITH admit_all, CASE WHEN size(selective) > 0 THEN selective + pairs
            WHEN size(kept) = 0 THEN []
            ELSE [reduce(best = head(kept), x IN kept | CASE WHEN x.df < best.df THEN x ELSE best END)] + pairs
       END AS fetching
  UNWIND fetching AS s
  CALL {
    WITH s, admit_all
    CALL db.idx.fulltext.queryNodes('Artifact', s.term) YIELD node, score
    WHERE admit_all OR ((($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
           AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
      AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
      AND ($f_users IS NULL OR node.user_id IN $f_users)
      AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
      AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
      AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
      AND ($f_since IS NULL OR node.valid_at >= $f_since)
      AND ($f_until IS NULL OR node.valid_at < $f_until)
      AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv)))
    WITH node, score
    ORDER BY score DESC
    LIMIT $per_term
    RETURN node
  }
  RETURN collect(DISTINCT node) AS nodes
}
WITH n_docs, n_tokens, kept, nodes,
     CASE WHEN n_docs > 0 AND n_tokens > 0 THEN toFloat(n_tokens) / n_docs ELSE 1.0 END AS avgdl
CALL {
  WITH n_docs, kept, nodes, avgdl
  WITH nodes, $k1 * (1.0 - $b) AS base, $k1 * $b / avgdl AS slope,
       [s IN kept | [' ' + s.stem + ':',
                     log(1.0 + ((CASE WHEN n_docs > s.df THEN n_docs ELSE s.df END) - s.df + 0.5) / (s.df + 0.5))]] AS weights
  WITH nodes, base, slope, weights, reduce(acc = 0.0, w IN weights | acc + w[1]) AS mass
  UNWIND nodes AS n
  WITH n, n.stems AS bag, base + slope * n.n_tokens AS norm, weights, mass
  WITH n, norm, mass, [w IN weights WHERE bag CONTAINS w[0] | [w[1], toFloat(split(left(split(bag, w[0])[1], 12), ' ')[0])]] AS found
  WITH n, mass, reduce(acc = 0.0, f IN found | acc + f[0] * f[1] * ($k1 + 1.0) / (f[1] + norm)) AS score,
       reduce(acc = 0.0, f IN found | acc + f[0]) AS held
  WHERE score > 0
  WITH n, score, held, mass ORDER BY score DESC, n.id ASC LIMIT $k
  WITH collect({n: n, score: score, held: held}) AS ranked, max(mass) AS mass
  UNWIND range(0, size(ranked) - 1) AS i
  WITH ranked[i].n AS n, ranked[i].score AS score, ranked[i].held AS held, i, mass
  RETURN collect({score: score, held: held, a: CASE WHEN i < $full
                    THEN n {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
                            .valid_at, .invalid_at, .metadata, .status, .key}
                    ELSE n {.id, .valid_at, .speaker, .session_id} END}) AS hits, max(mass) AS mass
}
RETURN n_docs, n_tokens, [s IN kept | s.term] AS kept, hits, mass
