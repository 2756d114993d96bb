"""One search as named stages (``config.STAGES``): route, channels, fusion, adjustments, links,
rerank. Each can be switched off by name (``Settings.off``) and reports what it did
(``explain().stages``); the channels do the I/O, this module orders them."""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Any, Literal

from ..config import ADJUSTMENTS, STAGES, LeanConfig, RouterConfig
from ..embedding.base import embed_checked
from ..errors import InputError
from ..evolution.recency import recency_weighted
from ..models import Hit, StageInfo
from ..ranking.fusion import Candidate, Fused, fuse_scores, reliabilities, rrf, sort_key
from ..ranking.leanings import DAY, QuestionLeanings, lean, name_tokens, said_form
from ..ranking.relevance import evidence, relevance
from ..ranking.rerank import NoReranker, RerankOutcome, rerank
from ..routing.router import Plan
from ..routing.who import ASSISTANT_ROLES, USER_ROLES
from ..settings import Settings, zone
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from ..storage.rows import hit_from_row, is_whole, one_per_key, rows_by_id
from .filters import Filters
from .graph import expand
from .keyword import keyword_search
from .links import link_search
from .vector import vector_search

if TYPE_CHECKING:
    from ..engine import Engine

RouteArg = Literal["auto", "vector", "hybrid"]
CHANNELS = frozenset({"vector", "keyword", "graph", "links"})
ROLES: dict[str, str] = {**dict.fromkeys(USER_ROLES, "user"), **dict.fromkeys(ASSISTANT_ROLES, "assistant")}
"""Speaker values of a user/assistant chat (case-folded) → the role the role leaning compares."""
LINKS_REFERENCE_RANK = 10
"""A links seed weighs how far its score stands above the 10th's: a clear first hit leads on."""
WHOLE_ROWS = 2
"""Channels return whole rows for their first ``WHOLE_ROWS * k`` candidates only (others by id)."""
SAME_RANKING_K = 10
"""Every ``k`` up to this ranks the same list: the channels are sized for it."""

_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="falkmem-channel")
_EMBEDDED_FOR = frozenset({"vector", "graph", "links"})
"""The channels that need the question's embedding (the vector hits seed the graph and links)."""


@dataclass
class Retrieval:
    """Everything one search computed (the SDK turns it into SearchResult / Explain)."""

    plan: Plan
    question: QuestionLeanings
    channels: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    fused: list[Fused] = field(default_factory=list)
    """The ranking before rerank."""
    reranked: list[Fused] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    reranker: str = "none"
    reranker_note: str = ""
    paths: dict[str, tuple[tuple[tuple[str, str, str], ...], ...]] = field(default_factory=dict)
    via: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Graph hits: the bridge entities each was reached through."""
    linked: dict[str, str] = field(default_factory=dict)
    """Links hits: the seed id or the identifier each was reached through."""
    similarity: dict[str, float] = field(default_factory=dict)
    """Cosine of the graph and links candidates (the vector channel's carry their own)."""
    units: dict[str, float] = field(default_factory=dict)
    """What a channel's score was divided by in fusion (``keyword``: the query's idf mass)."""
    held: dict[str, float] = field(default_factory=dict)
    """Keyword candidates: the idf of the searched terms each holds."""
    max_idf: float = 0.0
    """The idf of a word in one of the tenant's memories (0: no keyword search)."""
    weights: dict[str, float] = field(default_factory=dict)
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every candidate's row (whole, or ``{id, valid_at, speaker, session_id}``)."""
    leaned: dict[str, dict[str, float]] = field(default_factory=dict)
    """With ``trace``: what each adjustment added to each candidate."""
    stages: list[StageInfo] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass
class _Run:
    """A search in flight: what its stages read and write (one per call, never shared)."""

    engine: Engine
    s: Settings
    graph: str
    text: str
    k: int
    wanted: frozenset[str]
    as_of: float | None
    filters: Filters | None
    trace: bool
    out: Retrieval
    dimension: int
    qvec: VectorParam | None = None
    vec: list[tuple[dict[str, Any], float]] = field(default_factory=list)
    lists: dict[str, list[Candidate]] = field(default_factory=dict)
    outcome: RerankOutcome = field(init=False)
    reranking: bool = field(init=False)
    sized: int = field(init=False)
    fetch_k: int = field(init=False)
    full: int = field(init=False)

    @property
    def ex(self) -> Executor:
        return self.engine.store.executor

    def __post_init__(self) -> None:
        self.outcome = self.engine.reranker()
        self.reranking = (
            self.s.on("rerank")
            and self.s.rerank_top_n > 0
            and not isinstance(self.outcome.reranker, NoReranker)
        )
        self.sized = max(self.k, SAME_RANKING_K)
        # HNSW runs with ef = max(efRuntime, k): asking for k=10 alone missed whole top-10s at
        # 100k vectors; fetching 50 or more and cutting brought recall@10 to 0.99.
        self.fetch_k = max(self.s.vector.overfetch_min, self.s.vector.overfetch_factor * self.k)
        self.full = max(WHOLE_ROWS * self.sized, self.s.rerank_top_n if self.reranking else 0)

    def listed(self, channel: str, found: Sequence[tuple[dict[str, Any], float]]) -> None:
        """Keep a channel's (row, score) list, best first, as its candidates, and their rows."""
        self.lists[channel] = [Candidate(row["id"], sc, channel, i + 1) for i, (row, sc) in enumerate(found)]
        self.out.channels[channel] = [(c.id, c.score) for c in self.lists[channel]]
        for row, _ in found:
            self.keep(row)

    def keep(self, row: dict[str, Any]) -> None:
        """Remember a candidate's row; a whole row replaces an ``{id, valid_at}`` one."""
        have = self.out.rows.get(row["id"])
        if have is None or (not is_whole(have) and is_whole(row)):
            self.out.rows[row["id"]] = row

    def report(
        self, name: str, kind: str, start: float | None = None, ms: float = 0.0, **fields: Any
    ) -> None:
        """Record what stage ``name`` did (``explain().stages``); its time counts from ``start``."""
        ms = _ms(start) if start is not None else ms
        self.out.stages.append(StageInfo(name=name, kind=kind, ms=ms, **fields))
        if ms:
            self.out.timings_ms[name] = round(self.out.timings_ms.get(name, 0.0) + ms, 3)


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
    as_of: float | None = None,
    now: float | None = None,
    vector: Sequence[float] | None = None,
    filters: Filters | None = None,
    trace: bool = False,
) -> Retrieval:
    """Route and run one query: the ``k`` best hits plus every stage's output.

    ``as_of``: what was true then; ``now``: when the question is asked (its relative dates;
    default the clock), both epoch seconds. ``vector``: the query's embedding if the caller has
    it; ``trace``: record what each stage added to each candidate (``explain()``); ``channels``
    limits the channels for this call (``Settings.off``: for every call).
    """
    t_all, s = time.perf_counter(), engine.settings
    if route not in ("auto", "vector", "hybrid"):
        raise InputError("route", "must be 'auto', 'vector' or 'hybrid'")
    asked = set(channels) if channels is not None else set(CHANNELS)
    if not asked or not asked <= CHANNELS:
        raise InputError("channels", f"must be a non-empty subset of {sorted(CHANNELS)}")
    cfg = router or s.router
    if max_hops is not None:
        if not isinstance(max_hops, int) or not 1 <= max_hops <= 3:
            raise InputError("max_hops", "must be 1, 2 or 3")
        cfg = cfg.model_copy(update={"max_hops": max_hops})
    wanted = frozenset(c for c in asked if channels is not None or s.on(c))
    if route == "vector":
        wanted -= {"graph", "links"}
    meta = engine.store.meta(tenant_id)  # the tenant must exist (reading never creates it)
    embedding = _embedding(engine, text, vector, wanted, meta.dimension)  # while routing
    t = time.perf_counter()
    tz = zone(s.timezone)  # the question's "yesterday" is a day where its asker lives
    when = datetime.fromtimestamp(now if now is not None else time.time(), tz).replace(tzinfo=None)
    plan = engine.plan(tenant_id, text, cfg, force=None if route == "auto" else route, now=when)
    out = Retrieval(plan=plan, question=question_leanings(plan, text, tz))
    graph_name = engine.store.graph(tenant_id)
    run = _Run(engine, s, graph_name, text, k, wanted, as_of, filters, trace, out, meta.dimension)
    run.report("route", "route", t, note=plan.rule)
    keyword = _POOL.submit(_keyword, run) if "keyword" in wanted else None
    _vector(run, vector, embedding)
    graph = _POOL.submit(_graph, run) if "graph" in wanted and plan.route == "hybrid" else None
    _collect(run, keyword, graph)
    _fuse(run)
    _adjust(run)
    _links(run)
    _rerank(run)
    _hits(run)
    out.timings_ms["total"] = _ms(t_all)
    return out


def question_leanings(plan: Plan, text: str, tz: tzinfo = UTC) -> QuestionLeanings:
    """The plan in the form the adjustments take; the time window runs from a day before to two
    after (people tell of a day afterwards, and zones shift a date). ``tz``: the plan's zone."""
    window = None
    if plan.time is not None:
        start = plan.time.start.replace(tzinfo=tz).timestamp() - DAY
        end = plan.time.end.replace(tzinfo=tz).timestamp() + 2 * DAY
        window = (start, end)
    return QuestionLeanings(
        speakers=frozenset(key for key, _ in plan.entities),
        said=said_form(text),
        names=name_tokens(text),
        role=plan.role,
        window=window,
        explicit=plan.time is not None and plan.time.explicit,
        order=plan.order,
    )


def _keyword(run: _Run) -> tuple[Any, float]:
    t, c = time.perf_counter(), run.s.keyword
    found = keyword_search(
        run.ex, run.graph, run.text, c, k=run.fetch_k, full=run.full, as_of=run.as_of, filters=run.filters
    )
    return found, _ms(t)


def _embed(engine: Engine, text: str, dimension: int) -> tuple[Sequence[float], float]:
    t = time.perf_counter()
    [vector] = embed_checked(engine.embedder, [text], dimension=dimension)
    return vector, _ms(t)


def _embedding(
    engine: Engine, text: str, vector: Sequence[float] | None, wanted: frozenset[str], dimension: int
) -> Future[tuple[Sequence[float], float]] | None:
    """The question's embedding, started on the pool before routing (neither needs the other, so
    the routing's stamp read and entity scan run while the model does); None when the caller gave
    the vector or no channel needs one."""
    if vector is not None or not wanted & _EMBEDDED_FOR:
        return None
    return _POOL.submit(_embed, engine, text, dimension)


def _vector(
    run: _Run, vector: Sequence[float] | None, embedding: Future[tuple[Sequence[float], float]] | None
) -> None:
    """The vector channel; its neighbours also seed the graph and the links channels."""
    if embedding is not None:
        vector, run.out.timings_ms["embed"] = embedding.result()
    if vector is None or not run.wanted & _EMBEDDED_FOR:
        return  # a keyword-only search embeds nothing
    t = time.perf_counter()
    run.qvec = vector_param(vector)
    # Without a filter: all fetch_k neighbours (fusion takes the weakest as the floor). Under a
    # filter only `sized` must pass, the same for every k up to SAME_RANKING_K.
    want = run.sized if run.filters is not None and run.filters.active else run.fetch_k
    run.vec = vector_search(
        run.ex,
        run.graph,
        run.qvec,
        k=want,
        fetch_k=run.fetch_k,
        full=run.full,
        as_of=run.as_of,
        filters=run.filters,
    )
    if "vector" in run.wanted:
        run.listed("vector", run.vec)
    run.report("vector", "channel", t, ran="vector" in run.wanted, candidates=len(run.vec))


def _graph(run: _Run) -> tuple[Any, float]:
    """The graph channel: from the first vector hits' entities and the named ones (one query)."""
    t, c, plan = time.perf_counter(), run.s.graph, run.out.plan
    top = run.vec[: c.seed_k]
    best = max((sim for _, sim in top), default=0.0)  # the best seed weighs 1
    depth = min(plan.depth, c.walk_depth) if run.s.on("walk") else 0
    reached = expand(
        run.ex,
        run.graph,
        run.qvec or [],
        c,
        seeds=[(a["id"], math.exp((sim - best) / c.seed_temperature)) for a, sim in top],
        named=[key for key, _ in plan.entities],
        max_hops=plan.max_hops,
        limit=max(c.limit, run.k),
        relations=plan.relations,
        depth=depth,
        walk_floor=min((sim for _, sim in run.vec), default=-2.0),
        as_of=run.as_of,
        filters=run.filters,
    )
    return reached, _ms(t)


def _collect(
    run: _Run, keyword: Future[tuple[Any, float]] | None, graph: Future[tuple[Any, float]] | None
) -> None:
    """Wait for the channels run beside the vector query and keep what they found."""
    out = run.out
    if keyword is not None:
        kw, ms = keyword.result()
        out.units["keyword"], out.held, out.max_idf = kw.mass, kw.held, kw.max_idf
        run.listed("keyword", kw.hits)
        run.report("keyword", "channel", ms=ms, candidates=len(kw.hits))
    if graph is not None:
        reached, ms = graph.result()
        run.listed("graph", [(h.row, h.score) for h in reached])
        for h in reached:
            out.similarity.setdefault(h.row["id"], h.sim)
            out.paths[h.row["id"]] = h.paths
            out.via[h.row["id"]] = h.via
        run.report(
            "graph", "channel", ms=ms, candidates=len(reached), note=f"walk depth {run.out.plan.depth}"
        )
        if "vector" not in run.wanted:  # the graph ran on the vector neighbours: their similarity counts
            out.similarity.update({a["id"]: sim for a, sim in run.vec if a["id"] in out.similarity})


def _fuse(run: _Run) -> None:
    """The cosine plus each channel's evidence, weighted by its setting times its reliability."""
    t, s, out = time.perf_counter(), run.s, run.out
    base = {"keyword": s.keyword.weight, "graph": s.graph.weight}
    f = s.fusion
    sure = reliabilities(
        run.lists, strength=f.reliability if s.on("reliability") else 0.0, gap=f.reliability_gap
    )
    out.weights = {name: w * sure.get(name, 1.0) for name, w in base.items() if name in run.lists}
    if f.method == "rrf":  # for comparison (benchmarks)
        out.fused = rrf(run.lists, k=f.rrf_k, weights=out.weights)
    else:
        out.fused = fuse_scores(run.lists, similarity=out.similarity, weights=out.weights, units=out.units)
    run.report("fusion", "fusion", t, candidates=len(out.fused), note=f"weights {out.weights}")
    if run.trace:
        for name, cands in run.lists.items():
            w = 1.0 if name == "vector" else out.weights.get(name, 1.0) / (out.units.get(name) or 1.0)
            run.report(
                name,
                "contribution",
                candidates=len(cands),
                added={c.id: round(w * c.score, 6) for c in cands},
            )


def _adjust(run: _Run) -> None:
    """The adjustments: each adds its delta to the candidates it concerns, then one re-sort."""
    t, s, out = time.perf_counter(), run.s, run.out
    trace: dict[str, dict[str, float]] = {}
    out.fused = lean(out.fused, out.rows, out.question, _leanings(s), roles=ROLES, trace=trace)
    ms = _ms(t)
    for name in ADJUSTMENTS:
        moved = {i: d[name] for i, d in trace.items() if name in d}
        run.report(
            name, "adjustment", ran=s.on(name), candidates=len(moved), added=moved if run.trace else {}
        )
    out.timings_ms["adjust"] = ms
    if run.trace:
        out.leaned = trace


def _leanings(s: Settings) -> LeanConfig:
    """``Settings.lean`` with the adjustments switched off by name (``Settings.off``) at 0."""
    off = {n: 0.0 for n in ADJUSTMENTS if not s.on(n)}
    if not s.on("time"):
        off["time_explicit"] = 0.0
    return s.lean.model_copy(update=off)


def _links(run: _Run) -> None:
    """The links channel: a reached memory gains what its link weighs, a new one enters with its
    cosine, its link and its own adjustments."""
    out, c = run.out, run.s.links
    if "links" not in run.wanted or c.seeds <= 0 or c.weight <= 0 or (c.window <= 0 and c.rare_mentions < 2):
        run.report("links", "channel", ran=False, note="off")
        return
    t = time.perf_counter()
    seeds = _link_seeds(run)
    linked = link_search(
        run.ex, run.graph, run.qvec or [], c, seeds=seeds, as_of=run.as_of, filters=run.filters
    )
    run.listed("links", [(h.row, h.weight) for h in linked])
    added: dict[str, float] = {}
    for h in linked:
        out.similarity.setdefault(h.row["id"], h.sim)
        out.linked[h.row["id"]] = h.via
        added[h.row["id"]] = max(added.get(h.row["id"], 0.0), c.weight * h.weight)
    if added:
        out.fused = _with_links(run, added)
        rule = out.plan.rule + ("" if out.plan.route == "hybrid" else "; its first memories link to others")
        out.plan = out.plan.model_copy(update={"links": True, "route": "hybrid", "rule": rule})
    run.report("links", "channel", t, candidates=len(linked), added=added if run.trace else {})


def _with_links(run: _Run, added: dict[str, float]) -> list[Fused]:
    """The ranking with the links' additions; new memories get cosine + link and their own
    adjustments (but order, which ranks the head)."""
    out = run.out
    have = {f.id for f in out.fused}
    floor = min((sim for _, sim in run.vec), default=0.0)
    new = [
        Fused(i, out.similarity.get(i, floor) + w, {"links": r + 1}, {"links": w})
        for r, (i, w) in enumerate(added.items())
        if i not in have
    ]
    if new:
        cfg = _leanings(run.s).model_copy(update={"order": 0.0})
        new = lean(new, out.rows, out.question, cfg, roles=ROLES)
    ranks = {i: r + 1 for r, i in enumerate(added)}
    merged = [
        replace(
            f,
            score=f.score + added[f.id],
            ranks={**f.ranks, "links": ranks[f.id]},
            scores={**f.scores, "links": added[f.id]},
        )
        if f.id in added
        else f
        for f in out.fused
    ] + new
    return sorted(merged, key=sort_key)


def _link_seeds(run: _Run) -> list[tuple[str, float]]:
    """The first ``links.seeds`` memories by their score without the graph's share, each with
    its lead over :data:`LINKS_REFERENCE_RANK`; none unless one is a turn or the route is hybrid."""
    out, graph_weight = run.out, run.out.weights.get("graph", 0.0)
    if not out.fused:
        return []
    own = sorted(
        ((f.score - graph_weight * f.scores.get("graph", 0.0), f.id) for f in out.fused), key=lambda x: -x[0]
    )
    ref = own[min(LINKS_REFERENCE_RANK, len(own) - 1)][0]
    top = [(i, score - ref) for score, i in own[: run.s.links.seeds] if score > ref]
    if out.plan.route != "hybrid" and not any((out.rows.get(i) or {}).get("session_id") for i, _ in top):
        return []
    return top


def _fill(run: _Run, ids: Sequence[str]) -> None:
    """Fetch the whole rows of ``ids`` that the channels returned by id only (one query)."""
    missing = [i for i in ids if not is_whole(run.out.rows[i])]
    if missing:
        t = time.perf_counter()
        run.out.rows.update(rows_by_id(run.ex, run.graph, missing))
        run.out.timings_ms["fetch"] = round(run.out.timings_ms.get("fetch", 0.0) + _ms(t), 3)


def _rerank(run: _Run) -> None:
    """The cross-encoder over the ranking's head (when one is configured), then recency."""
    t, s, out, outcome = time.perf_counter(), run.s, run.out, run.outcome
    out.reranker, out.reranker_note = outcome.reranker.name, outcome.note
    out.reranked = list(out.fused)
    if run.reranking:
        head = out.fused[: s.rerank_top_n]
        _fill(run, [f.id for f in head])
        texts = {f.id: str(out.rows[f.id]["text"] or "") for f in head if is_whole(out.rows[f.id])}
        out.reranked = rerank(run.text, out.fused, texts, outcome.reranker, top_n=s.rerank_top_n)
    run.report("rerank", "rerank", t, ran=run.reranking, note=outcome.note or outcome.reranker.name)
    recency = s.recency_weight > 0 and s.on("recency")  # off by default
    if recency:
        out.reranked = recency_weighted(
            out.reranked,
            out.rows,
            weight=s.recency_weight,
            half_life_days=s.recency_half_life_days,
            now=run.as_of if run.as_of is not None else time.time(),
        )
    run.report("recency", "adjustment", ran=recency)


def _hits(run: _Run) -> None:
    """The ``k`` best as hits, one per fact key; the next candidates fill a duplicate's place."""
    out, taken = run.out, 0
    seen: dict[str, Fused] = {}
    places: list[tuple[str, str]] = []
    while len(places) < run.k and taken < len(out.reranked):
        batch = out.reranked[taken : taken + run.k - len(places)]
        taken += len(batch)
        _fill(run, [f.id for f in batch])  # (a row is not whole: forgotten since the channel ran)
        seen.update((f.id, f) for f in batch if is_whole(out.rows[f.id]))
        places = one_per_key(list(seen), out.rows)
    ev = evidence(
        list(seen.values()),
        vector=out.channels.get("vector", []),
        similarity=out.similarity,
        held=out.held,
        mass=out.units.get("keyword", 0.0),
        max_idf=out.max_idf,
    )
    # one scale per list: score is fused, rerank_score the reranker's; relevance: one for all
    for place, shown in places:
        f = seen[place]
        rel = relevance(ev[place], run.s.relevance)
        out.hits.append(hit_from_row(out.rows[shown], f.score, dict(f.ranks), f.rerank_score, rel))


assert set(STAGES) >= CHANNELS | set(ADJUSTMENTS)
