"""The graph channel: from the vector channel's first memories, over the entities they name, to
the memories that name the same entities, and along the typed RELATED_TO edges the question asks
about (``retrieve/expand``, one round trip)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..config import GraphConfig
from ..ingest.aggregate import EVIDENCE_SEP
from ..storage.cypher import query
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from .filters import Filters


@dataclass(frozen=True, slots=True)
class GraphHit:
    """A memory the expansion reached: its graph score (summed over the bridge entities), its
    cosine to the query, up to three entities it was reached through and RELATED_TO paths."""

    row: dict[str, Any]
    score: float
    sim: float
    via: tuple[str, ...]
    paths: tuple[tuple[tuple[str, str, str], ...], ...]


def expand(
    executor: Executor,
    graph: str,
    vector: Sequence[float] | VectorParam,
    cfg: GraphConfig,
    *,
    seeds: Sequence[tuple[str, float]],
    named: Sequence[str],
    max_hops: int,
    limit: int,
    relations: Sequence[str] = (),
    depth: int = 0,
    walk_floor: float = -2.0,
    as_of: float | None = None,
    filters: Filters | None = None,
) -> list[GraphHit]:
    """Run ``retrieve/expand``; the reached memories, best graph score first. ``seeds``: (memory
    id, weight) to start from; ``named``: entity keys the query names, followed straight to the
    memories about them. The walk follows ``relations`` up to ``depth`` steps; a co-mention step
    counts what has a cosine of at least ``walk_floor`` (the weakest vector candidate's)."""
    named_weight = cfg.named_weight
    if not seeds and not (named and named_weight > 0):
        return []
    walking = depth > 0 and bool(relations)
    rows = executor.run(
        graph,
        query("retrieve/expand"),
        {
            "seeds": [{"id": i, "w": float(w)} for i, w in seeds],
            "named": list(named),
            "named_weight": float(named_weight),
            "max_score": float(cfg.max_score),
            "max_mentions": cfg.max_mentions,
            "per_entity": cfg.per_entity,
            "head_weight": cfg.head_weight,
            "tail_weight": cfg.tail_weight,
            "max_hops": max_hops,
            "hop_weight": cfg.hop_weight,
            "relations": list(relations) if walking else [],
            "depth": depth if walking else 0,
            "walk_from": cfg.walk_from,
            "walk_per_entity": cfg.walk_per_entity,
            "walk_fanout": cfg.walk_fanout,
            "walk_weight": float(cfg.walk_weight),
            "evidence_weight": float(cfg.evidence_weight),
            "reach_weight": float(cfg.reach_weight if walking else 0.0),
            "walk_floor": float(walk_floor if walking else -2.0),
            "limit": limit,
            "vector": vector_param(vector),
            "sep": EVIDENCE_SEP,
            "as_of": as_of,
            **(filters or Filters()).params(),
        },
    )
    hits: dict[str, GraphHit] = {}
    for r in rows:
        if r["a"]["id"] not in hits:
            paths = tuple(tuple((str(a), str(b), str(c)) for a, b, c in p) for p in (r["paths"] or []) if p)
            via = tuple(dict.fromkeys(str(v) for v in r["via"] or ()))
            hits[r["a"]["id"]] = GraphHit(r["a"], float(r["score"]), float(r["sim"]), via, paths)
    return list(hits.values())
