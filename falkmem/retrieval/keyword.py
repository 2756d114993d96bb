"""The keyword channel: full-text candidates from FalkorDB, re-ranked with BM25 in the engine."""

from __future__ import annotations

from typing import Any

from ..keyword.bm25 import bm25_scores
from ..keyword.stem import stem_all
from ..keyword.tokens import query_terms, tokenize
from ..storage.cypher import query
from ..storage.executor import Executor
from .filters import Filters


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

    User text is sanitised into alphanumeric OR-terms (the full-text syntax is live: ``-``,
    ``@``, ``*``, quotes and parentheses change the meaning or fail); very common words are
    dropped. The engine's own score (coarse TF-IDF without length normalisation) only picks
    the candidates; BM25 with the tenant's document frequencies ranks them. Each artifact is
    indexed with its attribution (speaker, user), so questions that name people match.
    """
    wanted = query_terms(text)
    if not wanted:  # nothing searchable: only stopwords, punctuation or query syntax
        return []
    stats = executor.run(graph, query("retrieve/term_stats"), {"terms": wanted})
    df_raw = {str(r["term"]): int(r["df"]) for r in stats}
    n_docs = int(stats[0]["n_docs"]) if stats else 0
    present = [t for t in wanted if df_raw.get(t, 0) > 0]
    if not present:
        return []
    # Very common terms cost the most (full-text cost is linear in matches) and rank nothing:
    # keep them only when nothing rarer is left. The cut has an absolute floor: on a small
    # tenant a name in 2 of 3 memories is what the question is about, and cheap to match.
    common = max(common_min_df, common_fraction * n_docs)
    rare = [t for t in present if df_raw[t] <= common]
    kept = (rare or sorted(present, key=lambda t: df_raw[t])[:1])[:max_terms]
    rows = executor.run(
        graph, query("retrieve/keyword_search"),
        {"terms": kept, "per_term": candidates, "as_of": as_of, **(filters or Filters()).params()},
    )  # fmt: skip
    if not rows:
        return []
    # The index stems both sides (Snowball English); so does BM25 here, or it would score the
    # index's own matches ("companies" for "company") 0.
    kept_stems = stem_all(kept)
    df = dict(zip(kept_stems, (df_raw[t] for t in kept), strict=True))
    avgdl = (float(stats[0]["n_tokens"]) / n_docs) if stats and n_docs else 0.0
    docs = [
        (
            str(r["a"]["id"]),
            stem_all(tokenize(f"{r['a'].get('text') or ''} {r['a'].get('attribution') or ''}")),
        )
        for r in rows
    ]
    scores = bm25_scores(kept_stems, docs, df=df, n_docs=max(n_docs, len(rows)), avgdl=avgdl)
    by_id = {str(r["a"]["id"]): r["a"] for r in rows}
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(by_id[i], s) for i, s in ranked[:k] if s > 0]
