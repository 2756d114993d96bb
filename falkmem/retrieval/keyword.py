"""The keyword channel: full-text candidates ranked with BM25, both inside FalkorDB."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import KeywordConfig
from ..keyword.bm25 import bm25_idf
from ..keyword.stem import stem_all
from ..keyword.tokens import query_terms
from ..storage.cypher import query
from ..storage.executor import Executor
from .filters import Filters

UNBOUNDED = 2**31 - 2
"""What ``max_df=None`` sends: a count no tenant reaches (no bound)."""


@dataclass(frozen=True, slots=True)
class KeywordHits:
    """The winners, (row, BM25 score) best first; ``mass``, the searched terms' summed idf (fusion
    divides by it: a score means the same for a two-word question and a twenty-word one);
    ``held``, each winner's id → the idf of the searched terms it holds; ``max_idf``, the idf of
    a word in one of the tenant's memories (the most a searched word can weigh there)."""

    hits: list[tuple[dict[str, Any], float]] = field(default_factory=list)
    mass: float = 0.0
    held: dict[str, float] = field(default_factory=dict)
    max_idf: float = 0.0


def keyword_search(
    executor: Executor,
    graph: str,
    text: str,
    cfg: KeywordConfig,
    *,
    k: int,
    full: int | None = None,
    as_of: float | None = None,
    filters: Filters | None = None,
) -> KeywordHits:
    """The ``k`` best active artifacts for ``text`` by BM25 and the searched terms' idf mass.
    User text becomes alphanumeric terms (the full-text syntax is live), one per Snowball stem;
    one query drops the too common ones and ranks by BM25 over the stored stem counts
    (``keyword/bm25.py`` is its reference). Only the ``full`` best rows are whole."""
    wanted = query_terms(text)
    if not wanted:  # nothing searchable: only stopwords, punctuation or query syntax
        return KeywordHits()
    by_stem: dict[str, str] = {}
    for term, stemmed in zip(wanted, stem_all(wanted), strict=True):
        by_stem.setdefault(stemmed, term)
    f = filters or Filters()
    fixed = {
        "per_term": max(cfg.candidates, k),
        "min_df": cfg.common_min_df,
        "common_fraction": cfg.common_fraction,
        "max_df": UNBOUNDED if cfg.max_df is None else cfg.max_df,
        "fetch_max_df": UNBOUNDED if cfg.fetch_max_df is None else cfg.fetch_max_df,
        "fetch_pairs": cfg.fetch_pairs,
        "max_terms": cfg.max_terms,
        "k": k,
        "full": k if full is None else full,
        "k1": cfg.k1,
        "b": cfg.b,
        "as_of": as_of,
        "narrowed": as_of is not None or f.active,
        **f.params(),
    }
    terms = [{"term": t, "stem": st} for st, t in by_stem.items()]
    rows = executor.run(graph, query("retrieve/keyword_search"), {"terms": terms, **fixed})
    if not rows:  # no _Meta node: nothing to rank against
        return KeywordHits()
    out = rows[0]
    found = out["hits"] or []
    return KeywordHits(
        [(h["a"], float(h["score"])) for h in found],
        float(out["mass"] or 0.0),
        {h["a"]["id"]: float(h["held"] or 0.0) for h in found},
        bm25_idf(1, int(out["n_docs"])) if out["n_docs"] else 0.0,
    )
