"""The configurations a run compares: per-call options (route, channels, router, hops) and settings instances."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from falkmem.routing.router import RouterConfig

Sweep = Literal["default", "quick", "real", "tune", "ablate", "core"]
SWEEPS = ("default", "quick", "real", "tune", "ablate", "core")

INSTANCES: dict[str, dict[str, Any]] = {
    "default": {},
    # The single-channel baselines rank by their channel alone: no leaning (speaker, role, asks,
    # time, order) re-ranks them, so "vector-only" is the HNSW index's order and "keyword-only" BM25's.
    "raw": {"speaker_weight": 0.0, "role_weight": 0.0, "asks_penalty": 0.0, "brief_penalty": 0.0,
            "impersonal_penalty": 0.0, "time_weight": 0.0, "time_weight_explicit": 0.0, "order_weight": 0.0},
    "overfetch-10x1": {"overfetch_min": 10, "overfetch_factor": 1},
    "overfetch-200": {"overfetch_min": 200},
    "graph-weight-1": {"graph_weight": 1.0},
    "graph-weight-6": {"graph_weight": 6.0},
    "rerank": {},
    "rrf": {"fusion": "rrf", "keyword_weight": 1.0, "graph_weight": 1.0, "links_weight": 1.0},
    "graph-weight-0.25": {"graph_weight": 0.25},
    "graph-weight-1.0": {"graph_weight": 1.0},
    "keyword-weight-0.4": {"keyword_weight": 0.4},
    "keyword-weight-0.8": {"keyword_weight": 0.8},
    "tail-weight-1": {"graph_tail_weight": 1.0},
    "head-weight-3": {"graph_head_weight": 3.0},
    "seeds-5": {"graph_seed_k": 5},
    "no-guard": {"fusion_guard": False},
    "router-cue": {"router_require_cue": True},
    "no-links": {"links_seeds": 0},
    "no-turn-links": {"links_window": 0},
    "no-speaker": {"speaker_weight": 0.0},
    "no-role": {"role_weight": 0.0},
    "no-asks": {"asks_penalty": 0.0},
    "no-brief": {"brief_penalty": 0.0},
    "no-impersonal": {"impersonal_penalty": 0.0},
    "no-time": {"time_weight": 0.0, "time_weight_explicit": 0.0},
    "time-filter": {"time_weight_explicit": 1.0},
    "no-order": {"order_weight": 0.0},
    "no-walk": {"graph_walk_depth": 0},
    "no-leanings": {"speaker_weight": 0.0, "role_weight": 0.0, "asks_penalty": 0.0, "brief_penalty": 0.0,
                    "impersonal_penalty": 0.0, "time_weight": 0.0, "time_weight_explicit": 0.0, "order_weight": 0.0},
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
    if sweep == "ablate":  # the default with one part of it off at a time (conversations: links, leanings)
        names = {"no-links": "default without links", "no-turn-links": "default without turn links",
                 "no-speaker": "default without the speaker leaning", "no-role": "default without the role leaning",
                 "no-asks": "default without the asks leaning", "no-brief": "default without the brief leaning",
                 "no-impersonal": "default without the impersonal leaning",
                 "no-time": "default without the time leaning",
                 "time-filter": "written-out dates as a filter (time weight 1.0)",
                 "no-order": "default without the order leaning", "no-leanings": "default without leanings"}  # fmt: skip
        return base + [System(label, "ablation", instance=name, params=INSTANCES[name]) for name, label in names.items()]
    if sweep in ("real", "tune"):  # few systems: a real-data run is mostly ingest and searches
        extra = [
            System("default hops=2", "hybrid", max_hops=2, params={"max_hops": 2}),
            System("always-hybrid hops=1", "hybrid", route="hybrid", max_hops=1, params={"max_hops": 1}),
            System("rank fusion (RRF)", "fusion", instance="rrf", params=INSTANCES["rrf"]),
            System("default without links", "ablation", instance="no-links", params=INSTANCES["no-links"]),
            System("default without leanings", "ablation", instance="no-leanings", params=INSTANCES["no-leanings"]),
            System("default without the relational walk", "ablation", instance="no-walk", params=INSTANCES["no-walk"]),
        ]
        if sweep == "tune":  # one setting moved at a time from the defaults
            extra += [
                System(name, "tune", instance=name, params=INSTANCES[name])
                for name in ("graph-weight-0.25", "graph-weight-1.0", "keyword-weight-0.4", "keyword-weight-0.8", "tail-weight-1",
                             "head-weight-3", "seeds-5", "no-guard", "router-cue")
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
