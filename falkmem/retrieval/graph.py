"""The hybrid route's round trip: vector seeds + named entities → bounded RELATED_TO walk → artifacts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..storage.cypher import query
from ..storage.executor import Executor
from .vector import distinct_hits


@dataclass(frozen=True, slots=True)
class GraphHit:
    """An artifact the walk reached, its summed activation and up to three paths to it."""

    row: dict[str, Any]
    score: float
    paths: tuple[tuple[tuple[str, str, str], ...], ...]


@dataclass(frozen=True, slots=True)
class HybridResult:
    vector: list[tuple[dict[str, Any], float]]
    graph: list[GraphHit]


def hybrid_search(
    executor: Executor,
    graph: str,
    vector: Sequence[float],
    *,
    entity_keys: Sequence[str],
    k: int,
    fetch_k: int,
    max_hops: int,
    seed_k: int,
    vector_seed_weight: float,
    decay: float,
    per_entity: int,
    per_node_artifacts: int,
    limit: int,
    as_of: float | None = None,
    min_share: float = 0.0,
) -> HybridResult:
    """Run ``retrieve/hybrid`` (one query) and split it into the vector and the graph channel.

    Vector ids are deduplicated (FalkorDB #2848) and scores turned into cosine similarity.
    """
    rows = executor.run(
        graph,
        query("retrieve/hybrid"),
        {
            "vector": list(vector), "fetch_k": fetch_k, "seed_k": seed_k,
            "entity_keys": list(entity_keys), "vector_seed_weight": vector_seed_weight,
            "decay": decay, "max_hops": max_hops, "per_entity": per_entity,
            "per_node_artifacts": per_node_artifacts, "limit": limit, "as_of": as_of,
            "min_share": min_share,
        },
    )  # fmt: skip
    if not rows:
        return HybridResult([], [])
    vec = distinct_hits(((h["a"], float(h["sim"])) for h in rows[0]["vector"] or []), k)
    hits: list[GraphHit] = []
    for g in rows[0]["graph"] or []:
        paths = tuple(tuple((str(s), str(r), str(o)) for s, r, o in p) for p in (g["paths"] or []) if p)
        hits.append(GraphHit(row=g["a"], score=float(g["score"]), paths=paths))
    return HybridResult(vec, hits)
