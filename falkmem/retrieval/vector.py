"""The vector channel: one ``db.idx.vector.queryNodes`` call, over-fetched, deduplicated, filtered."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..storage.cypher import query
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from .filters import Filters


def fetch_size(k: int, *, minimum: int, factor: int) -> int:
    """How many neighbours to ask the index for to return ``k`` good ones.

    The HNSW search runs with ef = max(efRuntime, k): asking for k=10 alone missed whole
    top-10s at 100k vectors (falkordb-facts §1.3); fetching ≥ 50 and cutting brought recall@10
    to 0.99. Inactive (superseded/forgotten) artifacts are filtered after the index call, so
    over-fetching also keeps k results when some are filtered.
    """
    return max(minimum, factor * k)


def vector_search(
    executor: Executor,
    graph: str,
    vector: Sequence[float] | VectorParam,
    *,
    k: int,
    fetch_k: int,
    full: int | None = None,
    as_of: float | None = None,
    filters: Filters | None = None,
    exact_max: int = 20_000,
    n_docs: int | None = None,
) -> list[tuple[dict[str, Any], float]]:
    """The ``k`` nearest active artifacts as (row, cosine similarity), best first.

    FalkorDB returns cosine *distance* (1 − cos, lower is better); it is converted here so
    that every score past a retriever is higher-is-better. Concurrent vector queries on one
    index can return the same node twice (FalkorDB #2848): ids are deduplicated. With
    ``as_of`` (epoch seconds) the artifacts valid at that time are returned instead of the
    active ones.

    Only the ``full`` nearest rows (all by default) carry every property; the others carry
    ``id``, ``valid_at``, ``speaker`` and ``session_id`` (what fusion and the leanings read;
    ``storage/rows.py::is_whole``).

    ``filters`` apply inside the query. The index filters after its kNN step, so when a
    selective filter leaves fewer than ``k`` of the ``fetch_k`` neighbours, the artifacts that
    pass are selected through the graph and scored exactly (``retrieve/vector_filtered``) when
    at most ``exact_max`` pass; otherwise the fetch grows (×4 per round, up to ``n_docs``)
    until ``k`` pass or the whole index was asked.
    """
    fp = (filters or Filters()).params()
    base = {"vector": vector_param(vector), "as_of": as_of, **fp}

    def fetch(n: int) -> list[dict[str, Any]]:
        return executor.run(
            graph,
            query("retrieve/vector_search"),
            {**base, "fetch_k": n, "full": n if full is None else full},
        )

    rows = fetch(fetch_k)
    hits = distinct_hits(((r["a"], 1.0 - float(r["distance"])) for r in rows), k)
    if filters is None or not filters.active or len(hits) >= k:
        return hits
    exact = executor.run(graph, query("retrieve/vector_filtered"), {**base, "k": k, "scan": exact_max + 1})
    if exact and int(exact[0]["n"]) <= exact_max:
        return distinct_hits(((h["a"], 1.0 - float(h["distance"])) for h in exact[0]["hits"] or []), k)
    if n_docs is None:
        counted = executor.run(graph, query("retrieve/count_all_artifacts"))
        n_docs = int(counted[0]["n"]) if counted else 0
    limit = max(n_docs, fetch_k)
    while len(hits) < k and fetch_k < limit:
        fetch_k = min(fetch_k * 4, limit)
        rows = fetch(fetch_k)
        hits = distinct_hits(((r["a"], 1.0 - float(r["distance"])) for r in rows), k)
    return hits


def distinct_hits(
    pairs: Iterable[tuple[dict[str, Any], float]], k: int
) -> list[tuple[dict[str, Any], float]]:
    """The first ``k`` (row, similarity) pairs with distinct ids, in order.

    Concurrent vector queries on one index can return the same node twice (FalkorDB #2848),
    so every vector result goes through here.
    """
    out: list[tuple[dict[str, Any], float]] = []
    seen: set[str] = set()
    for a, sim in pairs:
        if a["id"] not in seen:
            seen.add(a["id"])
            out.append((a, sim))
            if len(out) == k:
                break
    return out
