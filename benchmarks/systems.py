"""The configurations a run compares: per-call options (route, channels, router, hops) and settings instances."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from falkmem.config import STAGES, RouterConfig

Sweep = Literal["default", "quick", "real", "tune", "ablate", "core"]
SWEEPS = ("default", "quick", "real", "tune", "ablate", "core")

_LEANINGS = ("speaker", "role", "asks", "impersonal", "time", "order")
INSTANCES: dict[str, dict[str, Any]] = {
    "default": {},
    # The single-channel baselines rank by their channel alone: no adjustment (speaker, role, asks,
    # time, order) re-ranks them, so "vector-only" is the HNSW index's order and "keyword-only" BM25's.
    "raw": {"off": _LEANINGS},
    "overfetch-10x1": {"vector.overfetch_min": 10, "vector.overfetch_factor": 1},
    "overfetch-200": {"vector.overfetch_min": 200},
    "graph-weight-1": {"graph.weight": 1.0},
    "graph-weight-6": {"graph.weight": 6.0},
    "rerank": {},
    "rrf": {"fusion.method": "rrf", "keyword.weight": 1.0, "graph.weight": 1.0, "links.weight": 1.0},
    "graph-weight-0.25": {"graph.weight": 0.25},
    "graph-weight-1.0": {"graph.weight": 1.0},
    "keyword-weight-0.4": {"keyword.weight": 0.4},
    "keyword-weight-0.8": {"keyword.weight": 0.8},
    "tail-weight-1": {"graph.tail_weight": 1.0},
    "head-weight-3": {"graph.head_weight": 3.0},
    "seeds-5": {"graph.seed_k": 5},
    "router-cue": {"router.require_cue": True},
    "no-turn-links": {"links.window": 0},
    "time-filter": {"lean.time_explicit": 1.0},
    "no-leanings": {"off": _LEANINGS},
    **{f"no-{stage}": {"off": (stage,)} for stage in STAGES},
}
"""Settings overrides of each extra ``Memory`` instance (same store, same embedder)."""


@dataclass(frozen=True)
class System:
    """One configuration: how each question is searched."""

    name: str
    group: str
    route: Literal["auto", "vector", "hybrid"] = "auto"
    channels: frozenset[str] | None = None
    max_hops: int | None = None
    router: RouterConfig | None = None
    instance: str = "default"
    params: dict[str, Any] = field(default_factory=dict)

    def search_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Tenant.search`` (besides the query and k)."""
        out: dict[str, Any] = {"route": self.route}
        if self.channels is not None:
            out["channels"] = set(self.channels)
        if self.max_hops is not None:
            out["max_hops"] = self.max_hops
        if self.router is not None:
            out["router"] = self.router
        return out


def _router(threshold: int, cue: bool) -> System:
    return System(
        name=f"router t={threshold} cue={'req' if cue else 'opt'}",
        group="router",
        router=RouterConfig(entity_threshold=threshold, require_cue=cue),
        params={"entity_threshold": threshold, "require_cue": cue},
    )


def systems(sweep: Sweep, *, reranker: bool = False) -> list[System]:
    """The systems of a sweep; ``reranker`` adds the with-reranker variant."""
    base = [
        System("vector-only", "baseline", route="vector", channels=frozenset({"vector"}), instance="raw"),
        System("keyword-only", "baseline", route="vector", channels=frozenset({"keyword"}), instance="raw"),
        System("vector route (vector+keyword)", "baseline", route="vector"),
        System("default (settings)", "router"),
    ]
    if sweep == "core":  # the default against its two channels alone: the paired comparison of a change
        return [s for s in base if s.name != "vector route (vector+keyword)"]
    if sweep == "ablate":  # the default with one stage off at a time (config.STAGES), then every adjustment
        stages = [n for n in STAGES if n not in ("rerank", "recency")]
        return base + [System(f"default without {n}", "ablation", instance=f"no-{n}", params=INSTANCES[f"no-{n}"])
                       for n in stages] + [System("default without leanings", "ablation", instance="no-leanings",
                                                  params=INSTANCES["no-leanings"])]  # fmt: skip
    if sweep in ("real", "tune"):  # few systems: a real-data run is mostly ingest and searches
        extra = [
            System("default hops=2", "hybrid", max_hops=2, params={"max_hops": 2}),
            System("always-hybrid hops=1", "hybrid", route="hybrid", max_hops=1, params={"max_hops": 1}),
            System("rank fusion (RRF)", "fusion", instance="rrf", params=INSTANCES["rrf"]),
            System("default without links", "ablation", instance="no-links", params=INSTANCES["no-links"]),
            System(
                "default without leanings",
                "ablation",
                instance="no-leanings",
                params=INSTANCES["no-leanings"],
            ),
            System(
                "default without the relational walk",
                "ablation",
                instance="no-walk",
                params=INSTANCES["no-walk"],
            ),
        ]
        if sweep == "tune":  # one setting moved at a time from the defaults
            extra += [
                System(name, "tune", instance=name, params=INSTANCES[name])
                for name in ("graph-weight-0.25", "graph-weight-1.0", "keyword-weight-0.4", "keyword-weight-0.8", "tail-weight-1",
                             "head-weight-3", "seeds-5", "router-cue")
            ]  # fmt: skip
    elif sweep == "quick":
        extra = [
            _router(1, False),
            _router(2, True),
            System("always-hybrid hops=2", "hybrid", route="hybrid", max_hops=2, params={"max_hops": 2}),
            System("always-hybrid hops=1", "hybrid", route="hybrid", max_hops=1, params={"max_hops": 1}),
            System(
                "overfetch min=10 x1",
                "overfetch",
                instance="overfetch-10x1",
                params=INSTANCES["overfetch-10x1"],
            ),
        ]
    else:
        extra = [_router(t, cue) for t in (1, 2, 3, 4) for cue in (False, True)]
        extra += [
            System(f"always-hybrid hops={h}", "hybrid", route="hybrid", max_hops=h, params={"max_hops": h})
            for h in (1, 2, 3)
        ]
        extra += [
            System(
                f"always-hybrid graph_weight={w}",
                "graph-weight",
                route="hybrid",
                instance=f"graph-weight-{w}",
                params=INSTANCES[f"graph-weight-{w}"],
            )
            for w in (1, 6)
        ]
        extra += [
            System(
                f"overfetch {name.removeprefix('overfetch-')}",
                "overfetch",
                instance=name,
                params=INSTANCES[name],
            )
            for name in ("overfetch-10x1", "overfetch-200")
        ]
    out = base + extra
    if reranker:
        out.append(System("default + reranker", "rerank", instance="rerank", params={"reranker": True}))
    return out
