"""The keyword channel: full-text candidates from FalkorDB, re-ranked with BM25 in the engine."""

from __future__ import annotations

from typing import Any

from ..keyword import stats as term_stats
from ..keyword.bm25 import bm25_scores_from_counts
from ..keyword.stem import document_stems, stem_all
from ..keyword.tokens import query_terms
from ..storage.cypher import query
from ..storage.executor import Executor
from .filters import Filters

clear_term_stats = term_stats.clear


def keyword_search(
    executor: Executor,
    graph: str,
    text: str,
    *,
    k: int,
    candidates: int,
    as_of: float | None = None,
    common_fraction: float = 0.25,
    common_min_df: int = 100,
    max_terms: int = 12,
    filters: Filters | None = None,
) -> list[tuple[dict[str, Any], float]]:
    """The ``k`` best active artifacts for ``text`` by BM25, as (row, score), best first.

    User text is sanitised into alphanumeric terms (the full-text syntax is live: ``-``,
    ``@``, ``*``, quotes and parentheses change the meaning or fail). A term in more than
    ``max(common_min_df, common_fraction * N)`` memories is dropped unless every term is that
    common. The engine's own score (coarse TF-IDF without length normalisation) only picks up
    to ``candidates`` candidates per term; BM25 with the tenant's document frequencies ranks
    them, on Snowball stems like the index's. Each artifact is indexed with its attribution
    (speaker, user), so questions that name people match.

    One round trip counts the terms whose frequency is not cached, cuts and fetches the
    candidates (id, text, attribution); a second fetches the rows of the ``k`` winners. The
    counts are cached per tenant (``falkmem/keyword/stats.py``); when another process wrote
    since they were counted, the query is run again with every term counted.
    """
    wanted = query_terms(text)
    if not wanted:  # nothing searchable: only stopwords, punctuation or query syntax
        return []
    fixed = {
        "per_term": candidates, "min_df": common_min_df, "common_fraction": common_fraction,
        "max_terms": max_terms, "as_of": as_of, **(filters or Filters()).params(),
    }  # fmt: skip
    gen, snapshot, known = term_stats.lookup(executor, graph, wanted)
    out = _search(executor, graph, wanted, known, fixed)
    if out is None:
        return []
    if (
        known
        and snapshot is not None
        and (out["n_docs"], out["n_tokens"]) != (snapshot.n_docs, snapshot.n_tokens)
    ):
        # Another process wrote since the cached counts were taken: count everything afresh.
        known = {}
        out = _search(executor, graph, wanted, known, fixed)
        if out is None:
            return []
    n_docs, n_tokens = int(out["n_docs"]), float(out["n_tokens"])
    df_all = {str(s["term"]): int(s["df"]) for s in out["stats"]}
    term_stats.store(executor, graph, gen, term_stats.TermStats(n_docs, n_tokens), df_all)
    kept = [str(t) for t in out["kept"]]
    found = out["candidates"] or []
    if not kept or not found:
        return []
    # The index stems both sides (Snowball English); so does BM25 here, or it would score the
    # index's own matches ("companies" for "company") 0.
    kept_stems = stem_all(kept)
    df = dict(zip(kept_stems, (df_all[t] for t in kept), strict=True))
    docs = []
    for c in found:
        length, counts = document_stems(f"{c.get('text') or ''} {c.get('attribution') or ''}")
        docs.append((str(c["id"]), {t: counts[t] for t in kept_stems if t in counts}, length))
    avgdl = n_tokens / n_docs if n_docs else 0.0
    scores = bm25_scores_from_counts(kept_stems, docs, df=df, n_docs=max(n_docs, len(docs)), avgdl=avgdl)
    ranked = [(i, s) for i, s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])) if s > 0][:k]
    if not ranked:
        return []
    rows = executor.run(graph, query("retrieve/get_artifacts"), {"ids": [i for i, _ in ranked]})
    by_id = {str(r["a"]["id"]): r["a"] for r in rows}
    # An id missing here was erased between the two round trips.
    return [(by_id[i], s) for i, s in ranked if i in by_id]


def _search(
    executor: Executor, graph: str, wanted: list[str], known: dict[str, int], fixed: dict[str, Any]
) -> dict[str, Any] | None:
    terms = [{"term": t, "df": known.get(t)} for t in wanted]
    rows = executor.run(graph, query("retrieve/keyword_search"), {"terms": terms, **fixed})
    return rows[0] if rows else None
