"""One search, stage by stage: route → channels → fuse → rerank. Pure orchestration; the
channels do the I/O. Every stage's candidates and time are kept for ``explain``.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..embedding.base import embed_checked
from ..errors import InputError
from ..evolution.recency import recency_weighted
from ..models import Hit
from ..ranking.candidate import Candidate
from ..ranking.fusion import Fused, rrf
from ..ranking.rerank import rerank
from ..routing.router import Plan, RouterConfig
from ..storage.rows import hit_from_row
from .filters import Filters
from .graph import hybrid_search
from .keyword import keyword_search
from .vector import fetch_size, vector_search

if TYPE_CHECKING:
    from ..engine import Engine

RouteArg = Literal["auto", "vector", "hybrid"]
CHANNELS = frozenset({"vector", "keyword", "graph"})


@dataclass
class Retrieval:
    """Everything one search computed (the SDK turns it into SearchResult / Explain)."""

    plan: Plan
    channels: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    fused: list[Fused] = field(default_factory=list)
    reranked: list[Fused] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    reranker: str = "none"
    reranker_note: str = ""
    paths: dict[str, tuple[tuple[tuple[str, str, str], ...], ...]] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def retrieve(
    engine: Engine,
    tenant_id: str,
    text: str,
    *,
    k: int,
    route: RouteArg = "auto",
    max_hops: int | None = None,
    channels: Collection[str] | None = None,
    router: RouterConfig | None = None,
    candidates: int | None = None,
    as_of: float | None = None,
    vector: Sequence[float] | None = None,
    filters: Filters | None = None,
) -> Retrieval:
    """Route and run one query; the ``k`` best hits plus every intermediate list.

    ``as_of`` (epoch seconds) asks what was true then instead of what is active now.
    ``vector``: the query's embedding when the caller computed it already (``search_many``
    embeds all its queries in one call); the embed step is skipped. ``filters``: what every
    hit must match (applied inside each channel's query; see ``retrieval/filters.py``).
    """
    s = engine.settings
    if route not in ("auto", "vector", "hybrid"):
        raise InputError("route", "must be 'auto', 'vector' or 'hybrid'")
    wanted = set(channels) if channels is not None else {"vector", "keyword", "graph"}
    if not wanted or not wanted <= CHANNELS:
        raise InputError("channels", f"must be a non-empty subset of {sorted(CHANNELS)}")
    if not s.keyword_channel and channels is None:
        wanted.discard("keyword")
    cfg = router or RouterConfig(
        entity_threshold=s.router_entity_threshold, require_cue=s.router_require_cue, max_hops=s.max_hops
    )
    if max_hops is not None:
        if not isinstance(max_hops, int) or not 1 <= max_hops <= 3:
            raise InputError("max_hops", "must be 1, 2 or 3")
        cfg = cfg.model_copy(update={"max_hops": max_hops})
    t_all = time.perf_counter()
    timings: dict[str, float] = {}
    ex = engine.store.executor
    graph = engine.store.graph(tenant_id)
    meta = engine.store.meta(tenant_id)

    t = time.perf_counter()
    plan = engine.plan(tenant_id, text, cfg, force=None if route == "auto" else route)
    timings["route"] = _ms(t)
    pool = max(k, candidates or k)

    if vector is None:
        t = time.perf_counter()
        [vector] = embed_checked(engine.embedder, [text], dimension=meta.dimension)
        timings["embed"] = _ms(t)

    out = Retrieval(plan=plan)
    rows: dict[str, dict[str, Any]] = {}
    lists: dict[str, list[Candidate]] = {}
    fetch_k = fetch_size(pool, minimum=s.overfetch_min, factor=s.overfetch_factor)
    if plan.route == "hybrid" and "graph" in wanted:
        t = time.perf_counter()
        res = hybrid_search(
            ex, graph, vector,
            entity_keys=[key for key, _ in plan.entities], k=pool, fetch_k=fetch_k,
            max_hops=plan.max_hops,
            # The walk starts from the entities the query names; only when it names none
            # do the top vector hits' entities seed it (else they echo the vector channel).
            seed_k=0 if plan.entities else s.graph_seed_k,
            vector_seed_weight=s.graph_vector_seed_weight, decay=s.graph_decay,
            per_entity=s.graph_per_entity, per_node_artifacts=s.graph_per_node_artifacts,
            limit=pool, as_of=as_of, min_share=s.graph_min_activation / 2,
        )  # fmt: skip
        timings["vector+graph"] = _ms(t)
        vec = res.vector
        if filters is not None:  # interim, until retrieve/hybrid applies the filter fragment itself
            vec = vector_search(ex, graph, vector, k=pool, fetch_k=fetch_k, as_of=as_of, filters=filters)
            res.graph[:] = [h for h in res.graph if filters.admits(h.row)]
        # Rank fusion only sees ranks, so a hit whose activation is noise (an artifact that
        # merely mentions a hub of 5,000 mentions scores about 1/5,000) would still be "graph rank 1".
        reached = [h for h in res.graph if h.score >= s.graph_min_activation]
        lists["graph"] = [Candidate(h.row["id"], h.score, "graph", i + 1) for i, h in enumerate(reached)]
        for h in reached:
            rows[h.row["id"]] = h.row
            out.paths[h.row["id"]] = h.paths
    else:
        t = time.perf_counter()
        vec = (
            vector_search(ex, graph, vector, k=pool, fetch_k=fetch_k, as_of=as_of, filters=filters)
            if "vector" in wanted
            else []
        )
        timings["vector"] = _ms(t)
    if "vector" in wanted:
        lists["vector"] = [Candidate(a["id"], sim, "vector", i + 1) for i, (a, sim) in enumerate(vec)]
        for a, _ in vec:
            rows.setdefault(a["id"], a)
    if "keyword" in wanted:
        t = time.perf_counter()
        kw = keyword_search(
            ex, graph, text, k=pool, candidates=max(s.keyword_candidates, pool), as_of=as_of, filters=filters
        )
        timings["keyword"] = _ms(t)
        lists["keyword"] = [Candidate(a["id"], sc, "keyword", i + 1) for i, (a, sc) in enumerate(kw)]
        for a, _ in kw:
            rows.setdefault(a["id"], a)
    out.channels = {name: [(c.id, c.score) for c in cands] for name, cands in lists.items()}

    t = time.perf_counter()
    # On the hybrid route the router judged the question relational: the graph's evidence
    # weighs more (graph_weight), or a chain link that shares no words with the question
    # could never outrank look-alike distractors found by two channels.
    out.fused = rrf(lists, k=s.rrf_k, weights={"graph": s.graph_weight})
    timings["fuse"] = _ms(t)

    t = time.perf_counter()
    outcome = engine.reranker()
    out.reranker, out.reranker_note = outcome.reranker.name, outcome.note
    texts = {f.id: str(rows[f.id].get("text") or "") for f in out.fused[: s.rerank_top_n]}
    out.reranked = rerank(text, out.fused, texts, outcome.reranker, top_n=s.rerank_top_n)
    timings["rerank"] = _ms(t)
    if s.recency_weight > 0:  # off by default: measured in the benchmark before turning it on
        out.reranked = recency_weighted(
            out.reranked, rows, weight=s.recency_weight, half_life_days=s.recency_half_life_days,
            now=as_of if as_of is not None else time.time(),
        )  # fmt: skip

    for f in out.reranked[:k]:
        score = f.rerank_score if f.rerank_score is not None else f.score
        out.hits.append(hit_from_row(rows[f.id], score, dict(f.ranks)))
    timings["total"] = _ms(t_all)
    out.timings_ms = timings
    return out
