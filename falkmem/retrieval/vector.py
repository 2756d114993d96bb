"""The vector channel: one ``db.idx.vector.queryNodes`` call, over-fetched, deduplicated, filtered."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..storage.cypher import query
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from .filters import Filters


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
) -> list[tuple[dict[str, Any], float]]:
    """The ``k`` nearest active artifacts as (row, cosine), best first, of ``fetch_k`` neighbours
    asked for; only the ``full`` nearest rows are whole. When a filter leaves fewer than ``k``,
    those that pass are scored exactly if at most ``exact_max``, else the fetch grows ×4 a round."""
    fp = (filters or Filters()).params()
    base = {"vector": vector_param(vector), "as_of": as_of, **fp}

    def fetch(n: int) -> list[tuple[dict[str, Any], float]]:
        params = {**base, "fetch_k": n, "full": n if full is None else full}
        rows = executor.run(graph, query("retrieve/vector_search"), params)
        return distinct_hits(((r["a"], 1.0 - float(r["distance"])) for r in rows), k)

    hits = fetch(fetch_k)
    if filters is None or not filters.active or len(hits) >= k:
        return hits
    exact = executor.run(graph, query("retrieve/vector_filtered"), {**base, "k": k, "scan": exact_max + 1})
    if exact and int(exact[0]["n"]) <= exact_max:
        return distinct_hits(((h["a"], 1.0 - float(h["distance"])) for h in exact[0]["hits"] or []), k)
    counted = executor.run(graph, query("retrieve/count_all_artifacts"))
    limit = max(int(counted[0]["n"]) if counted else 0, fetch_k)
    while len(hits) < k and fetch_k < limit:
        fetch_k = min(fetch_k * 4, limit)
        hits = fetch(fetch_k)
    return hits


def distinct_hits(
    pairs: Iterable[tuple[dict[str, Any], float]], k: int
) -> list[tuple[dict[str, Any], float]]:
    """The first ``k`` pairs with distinct ids: concurrent vector queries on one index can return
    the same node twice (FalkorDB #2848)."""
    out: list[tuple[dict[str, Any], float]] = []
    seen: set[str] = set()
    for a, sim in pairs:
        if a["id"] not in seen:
            seen.add(a["id"])
            out.append((a, sim))
            if len(out) == k:
                break
    return out
