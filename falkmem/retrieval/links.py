"""The links channel: from the first memories of a search to the turns around them in their
session and the memories that share a rare identifier with them (``retrieve/links``, one round
trip). Chat turns carry little alone: the answer is often the next message, or another turn with
the same flight number (docs/decisions/0004-links-channel.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..config import LinksConfig
from ..storage.cypher import query
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from .filters import Filters

RARE_TYPES = ("identifier", "email")
"""Entity types whose sharing links two memories (a name is shared by memories about different
things; an identifier names one)."""


@dataclass(frozen=True, slots=True)
class LinkHit:
    """A memory the links channel reached: its strongest link's weight, its cosine to the query,
    and the seed's id (a turn link) or the identifier's name."""

    row: dict[str, Any]
    weight: float
    sim: float
    via: str


def link_search(
    executor: Executor,
    graph: str,
    vector: Sequence[float] | VectorParam,
    cfg: LinksConfig,
    *,
    seeds: Sequence[tuple[str, float]],
    as_of: float | None = None,
    filters: Filters | None = None,
) -> list[LinkHit]:
    """Run ``retrieve/links`` from ``seeds`` (memory id, weight > 0); the reached memories,
    strongest link first. Each turn further from a seed weighs ``cfg.decay`` times less."""
    seeds = [(i, w) for i, w in seeds if w > 0]
    if not seeds or (cfg.window <= 0 and cfg.rare_mentions < 2):
        return []
    rows = executor.run(
        graph,
        query("retrieve/links"),
        {
            "seeds": [{"id": i, "w": float(w)} for i, w in seeds],
            "by_distance": [float(cfg.decay**d) for d in range(min(cfg.window, 3))],
            "rare_max": cfg.rare_mentions,
            "rare_types": list(RARE_TYPES),
            "vector": vector_param(vector),
            "as_of": as_of,
            **(filters or Filters()).params(),
        },
    )
    return [LinkHit(row=r["a"], weight=float(r["w"]), sim=float(r["sim"]), via=str(r["via"])) for r in rows]
