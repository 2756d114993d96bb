"""The links channel: from the first memories of a search to the ones directly linked to them,
the turns around them in their session and the memories that share a rare identifier with them
(``retrieve/links``, one round trip).

Chat turns carry little on their own: the answer to "When did Zarek bake with his dad?" is
"Look at the bread we made about a week ago!", the message after the one that matches the
question; the flight number, the confirmation code and the travel dates of one trip are three
turns that share an identifier. The channel scores a reached memory by how strongly its seed
stands out (the seed's score above the field's) and by the link: a turn one step away counts
more than one two steps away, an identifier named by two memories more than one named by five.
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
"""Entity types whose sharing links two memories: codes, flight and order numbers, emails. Names
of people and places are shared by memories about different things (measured on LongMemEval:
following them cost 1.6-2 points of R@10); an identifier names one thing."""


@dataclass(frozen=True, slots=True)
class LinkHit:
    """A memory the links channel reached.

    Attributes:
        row: its projected properties.
        weight: its strongest link's weight (the seed's standing times the link's share).
        sim: its cosine similarity to the query (computed in the same query, for fusion).
        via: the seed's id (a turn link) or the identifier's name (a shared identifier).
    """

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
    """Run ``retrieve/links``; the reached memories, strongest link first.

    Args:
        cfg: ``window`` turns before and after a seed are reached, each step further weighing
            ``decay`` times less; an identifier named by 2 to ``rare_mentions`` memories links them.
        seeds: (memory id, weight) of the memories to start from; weights <= 0 are left out.
    """
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
