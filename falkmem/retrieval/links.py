"""The links channel: from the first memories of a search to the turns around them in their
session and the memories that share a rare identifier with them (``retrieve/links``, one round
trip; docs/decisions/0004-links-channel.md).

Chat turns carry little on their own: the answer to "When did Zarek bake with his dad?" is the
message after the one that matches the question; the flight number, the confirmation code and the
dates of one trip are three turns that share an identifier. A reached memory scores by how far
its seed stands out and by the link: a nearer turn, a rarer identifier count more.
"""

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
"""Entity types whose sharing links two memories: codes, flight and order numbers, emails (names
of people and places are shared by memories about different things; an identifier names one)."""


@dataclass(frozen=True, slots=True)
class LinkHit:
    """A memory the links channel reached: its row, its strongest link's weight (the seed's
    standing times the link's share), its cosine to the query (for fusion), and the seed's id (a
    turn link) or the identifier's name (a shared identifier)."""

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
    """Run ``retrieve/links``; the reached memories, strongest link first. ``cfg.window`` turns
    before and after a seed are reached, each step further weighing ``cfg.decay`` times less; an
    identifier named by 2 to ``cfg.rare_mentions`` memories links them. ``seeds``: (memory id,
    weight) of the memories to start from; weights <= 0 are left out."""
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
