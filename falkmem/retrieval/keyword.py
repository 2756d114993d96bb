"""The keyword channel: full-text candidates ranked with BM25, both inside FalkorDB."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..keyword.stem import stem_all
from ..keyword.tokens import query_terms
from ..storage.cypher import query
from ..storage.executor import Executor
from .filters import Filters

UNBOUNDED = 2**31 - 2
"""What ``max_df=None`` sends: a count no tenant reaches (no bound)."""


@dataclass(frozen=True, slots=True)
class KeywordHits:
    """The keyword channel's winners and what they are measured against.

    Attributes:
        hits: (row, BM25 score), best first.
        mass: the sum of the searched terms' idf: what a memory holding each term once, at the
            average length, scores. Fusion divides by it, so a score means the same for a
            two-word question and a twenty-word one (0 when nothing was searched).
    """

    hits: list[tuple[dict[str, Any], float]] = field(default_factory=list)
    mass: float = 0.0
    held: dict[str, float] = field(default_factory=dict)
    """Each winner's id → the idf of the searched terms it holds (at any count); ``held / mass``
    is the share of the question's searched words it has (``ranking/relevance.py``)."""


def keyword_search(
    executor: Executor,
    graph: str,
    text: str,
    *,
    k: int,
    candidates: int,
    full: int | None = None,
    as_of: float | None = None,
    common_fraction: float = 0.25,
    common_min_df: int = 100,
    max_df: int | None = None,
    fetch_max_df: int | None = None,
    fetch_pairs: int = 0,
    max_terms: int = 12,
    k1: float = 1.2,
    b: float = 0.75,
    filters: Filters | None = None,
) -> KeywordHits:
    """The ``k`` best active artifacts for ``text`` by BM25, as (row, score), best first, and
    the searched terms' idf mass.

    User text is sanitised into alphanumeric terms (the full-text syntax is live: ``-``,
    ``@``, ``*``, quotes and parentheses change the meaning or fail); terms with the same
    Snowball stem are one term (the index stems both sides). A term in more than
    ``max(common_min_df, common_fraction * N)`` memories, or in more than ``max_df``, is
    dropped unless every term is that common (then the rarest term of at most ``max_df``
    memories is searched; None: no bound; in a tenant of at most ``max_df / common_fraction``
    memories the bound changes only a question whose every term is in more than ``max_df`` of
    them: it finds nothing by keyword). A kept term in more than
    ``fetch_max_df`` memories scores the candidates the rarer terms bring but brings none of
    its own, unless no kept term is that rare (None: every kept term brings candidates); the
    first ``fetch_pairs`` pairs of such terms (in the question's order) each bring the
    candidates that hold both. The engine's own score
    (coarse TF-IDF without length normalisation) only picks up to ``candidates`` candidates
    per term; Okapi BM25 (``k1``, ``b``; Lucene idf) with the
    tenant's document frequencies (how many memories' stem counts hold each stem) ranks them on the stem counts each artifact stores. Each
    artifact is indexed with its attribution (speaker, user), so questions that name people
    match. Only the ``full`` best rows (all by default) carry every property; the others
    carry ``id``, ``valid_at``, ``speaker`` and ``session_id`` (``storage/rows.py::is_whole``).

    One query (``retrieve/keyword_search``) reads the terms' document frequencies (kept by every
    write, one index lookup per term), cuts, fetches, ranks and returns the rows of the ``k``
    winners: no candidate text crosses the wire and nothing is scored in Python, so the channel
    leaves the interpreter (and the embedding running beside it) alone.
    ``falkmem/keyword/bm25.py`` is the reference the query's ranking is tested against.
    """
    wanted = query_terms(text)
    if not wanted:  # nothing searchable: only stopwords, punctuation or query syntax
        return KeywordHits()
    by_stem: dict[str, str] = {}
    for term, stemmed in zip(wanted, stem_all(wanted), strict=True):
        by_stem.setdefault(stemmed, term)
    bound = UNBOUNDED if max_df is None else max_df
    f = filters or Filters()
    fixed = {
        "per_term": candidates, "min_df": common_min_df, "common_fraction": common_fraction,
        "max_df": bound, "fetch_max_df": UNBOUNDED if fetch_max_df is None else fetch_max_df, "fetch_pairs": fetch_pairs, "max_terms": max_terms, "k": k, "full": k if full is None else full, "k1": k1, "b": b, "as_of": as_of, "narrowed": as_of is not None or f.active, **f.params(),
    }  # fmt: skip
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
    )
