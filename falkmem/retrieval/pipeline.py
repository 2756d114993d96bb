"""One search, stage by stage: route → channels → fuse → rerank. Pure orchestration; the
channels do the I/O. Every stage's candidates and time are kept for ``explain``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Any, Literal

from ..embedding.base import embed_checked
from ..errors import InputError
from ..evolution.recency import recency_weighted
from ..models import Hit
from ..ranking.candidate import Candidate
from ..ranking.fusion import Fused, fuse_scores, rrf
from ..ranking.leanings import DAY, Leanings, QuestionLeanings, called_speakers, lean, name_tokens, said_form
from ..ranking.rerank import NoReranker, rerank
from ..routing.router import Plan, RouterConfig
from ..routing.who import ASSISTANT_ROLES, USER_ROLES
from ..settings import zone
from ..storage.executor import Executor
from ..storage.params import VectorParam, vector_param
from ..storage.rows import hit_from_row, is_whole, rows_by_id
from .filters import Filters
from .graph import Walk, expand, seed_weights
from .keyword import keyword_search
from .links import link_search
from .vector import fetch_size, vector_search

if TYPE_CHECKING:
    from ..engine import Engine

RouteArg = Literal["auto", "vector", "hybrid"]
CHANNELS = frozenset({"vector", "keyword", "graph", "links"})
ROLES: dict[str, str] = {**dict.fromkeys(USER_ROLES, "user"), **dict.fromkeys(ASSISTANT_ROLES, "assistant")}
"""Speaker values of a user/assistant chat (case-folded) → the role the role leaning compares."""
LINKS_REFERENCE_RANK = 10
"""A links seed weighs how far its fused score stands above the 10th's (the field a search
returns): a clear first hit leads to its neighbours, a first among equals barely."""


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
    via: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Graph hits: the bridge entities each was reached through."""
    linked: dict[str, str] = field(default_factory=dict)
    """Links hits: the seed id (a turn link) or the identifier name each was reached through."""
    similarity: dict[str, float] = field(default_factory=dict)
    """Cosine similarity of the graph and links candidates (the vector channel's carry their own)."""
    units: dict[str, float] = field(default_factory=dict)
    """What a channel's score was divided by in fusion (``keyword``: the query's idf mass)."""
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every candidate's projected row (whole, or ``{id, valid_at, speaker, session_id}``)."""
    question: QuestionLeanings | None = None
    """What the question leaned on (the leanings' input)."""
    leaned: dict[str, dict[str, float]] = field(default_factory=dict)
    """What each leaning added to (or took from) each candidate's fused score, as ranked last."""
    called: dict[str, str] = field(default_factory=dict)
    """Speakers the question names by what the other speaker calls them (``leanings.called_speakers``)."""
    timings_ms: dict[str, float] = field(default_factory=dict)


_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="falkmem-channel")
"""Channels that do not need the query embedding run here while it is computed."""

WHOLE_ROWS = 2
"""The vector and keyword channels return every property of their first ``WHOLE_ROWS * k``
candidates only (the rest as ``{id, valid_at}``: fusion needs ids and scores); the few winners
ranked further down are fetched by id. With 2 × k, 1–2 of 100 MuSiQue-100 searches needed that
fetch (30–52 with 1 × k), and each channel leaves 30 of its 50 rows of text unsent (−0.17 to
−0.19 ms per query on MuSiQue-100 and LongMemEval). The graph channel returns fewer rows than
that; its rows stay whole (the same cut there measured no gain)."""
SAME_RANKING_K = 10
"""Every ``k`` up to this ranks the same list (a search for 3 hits returns the first 3 of a
search for 10): below it the channels are still sized for it — the text of their first
``WHOLE_ROWS * SAME_RANKING_K`` candidates (what the leanings read: whether a memory only asks),
and under a filter that many passing vector hits (the weakest is the floor fusion counts with).
Without a filter the channels fetch the same ``overfetch_min`` neighbours for every ``k`` up to 12."""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _timed[T](fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    t = time.perf_counter()
    return fn(*args, **kwargs), _ms(t)


def _keep(rows: dict[str, dict[str, Any]], row: dict[str, Any]) -> None:
    """Remember a candidate's row; a whole row replaces an ``{id, valid_at}`` one."""
    have = rows.get(row["id"])
    if have is None or (not is_whole(have) and is_whole(row)):
        rows[row["id"]] = row


def question_leanings(plan: Plan, text: str, tz: tzinfo = UTC) -> QuestionLeanings:
    """What the router read from question ``text``, in the form the leanings take (epoch-second
    window with its slack: a day before, two days after; its words and capitalised words, for
    the speakers it names). ``tz``: the zone the plan's times are wall-clock times of."""
    window = None
    if plan.time is not None:
        start = plan.time.start.replace(tzinfo=tz).timestamp() - DAY
        end = plan.time.end.replace(tzinfo=tz).timestamp() + 2 * DAY
        window = (start, end)
    return QuestionLeanings(
        speakers=frozenset(key for key, _ in plan.entities), said=said_form(text), names=name_tokens(text),
        role=plan.role, window=window,
        explicit=plan.time is not None and plan.time.explicit, order=plan.order,
    )  # fmt: skip


def link_seeds(
    first: Sequence[Fused], rows: Mapping[str, Mapping[str, Any]], *, n: int, hybrid: bool
) -> list[tuple[str, float]]:
    """The first ``n`` fused memories with how far each stands above the field (the score at
    :data:`LINKS_REFERENCE_RANK`), when the links channel can reach anything from them: one of
    them is a turn of a session (NEXT), or the route is hybrid (shared identifiers)."""
    if not first:
        return []
    ref = first[min(LINKS_REFERENCE_RANK, len(first) - 1)].score
    top = [(f.id, f.score - ref) for f in first[:n] if f.score > ref]
    if not hybrid and not any((rows.get(i) or {}).get("session_id") for i, _ in top):
        return []
    return top


def _fill(
    ex: Executor, graph: str, rows: dict[str, dict[str, Any]], ids: Sequence[str], timings: dict[str, float]
) -> None:
    """Fetch the whole rows of ``ids`` that the channels returned as ``{id, valid_at}`` (one query)."""
    missing = [i for i in ids if not is_whole(rows[i])]
    if not missing:
        return
    t = time.perf_counter()
    rows.update(rows_by_id(ex, graph, missing))
    timings["fetch"] = timings.get("fetch", 0.0) + _ms(t)


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
    """Route and run one query; the ``k`` best hits plus every intermediate list.

    ``as_of`` (epoch seconds) asks what was true then instead of what is active now.
    ``now`` (epoch seconds; default: the clock) is when the question is asked: relative dates
    in it resolve against it.
    ``trace``: record what each leaning gave each candidate (``Retrieval.leaned``: ``explain()``;
    a search does not pay for it).
    ``vector``: the query's embedding when the caller computed it already (``search_many``
    embeds all its queries in one call); the embed step is skipped. ``filters``: what every
    hit must match (applied inside each channel's query; see ``retrieval/filters.py``).
    """
    s = engine.settings
    if route not in ("auto", "vector", "hybrid"):
        raise InputError("route", "must be 'auto', 'vector' or 'hybrid'")
    wanted = set(channels) if channels is not None else set(CHANNELS)
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
    tz = zone(s.timezone)  # the question's "yesterday" is a day where its asker lives
    asked = datetime.fromtimestamp(now if now is not None else time.time(), tz).replace(tzinfo=None)
    plan = engine.plan(tenant_id, text, cfg, force=None if route == "auto" else route, now=asked)
    timings["route"] = _ms(t)
    pool = k
    sized = max(pool, SAME_RANKING_K)  # what the channels are sized for (see SAME_RANKING_K)
    outcome = engine.reranker()
    reranking = not isinstance(outcome.reranker, NoReranker) and s.rerank_top_n > 0
    full = max(WHOLE_ROWS * sized, s.rerank_top_n if reranking else 0)

    out = Retrieval(plan=plan)
    rows: dict[str, dict[str, Any]] = {}
    lists: dict[str, list[Candidate]] = {}
    # The keyword channel needs no embedding: it runs while the query is embedded and the
    # vector channel reads (channels wait on the server, not on the GIL).
    fetch_k = fetch_size(pool, minimum=s.overfetch_min, factor=s.overfetch_factor)
    keyword_job = None
    if "keyword" in wanted:
        keyword_job = _POOL.submit(
            _timed, keyword_search, ex, graph, text, k=fetch_k,
            candidates=max(s.keyword_candidates, fetch_k), full=full, as_of=as_of, filters=filters,
            max_df=s.keyword_max_df, fetch_max_df=s.keyword_fetch_max_df, fetch_pairs=s.keyword_fetch_pairs,
        )  # fmt: skip
    graph_on = plan.route == "hybrid" and "graph" in wanted
    links_on = (
        route != "vector" and "links" in wanted and s.links_seeds > 0 and s.links_weight > 0
        and (s.links_window > 0 or s.links_rare_mentions >= 2)
    )  # fmt: skip
    vec: list[tuple[dict[str, Any], float]] = []
    qvec: VectorParam | None = None
    if "vector" in wanted or graph_on or links_on:  # a keyword-only search embeds nothing
        if vector is None:
            t = time.perf_counter()
            [vector] = embed_checked(engine.embedder, [text], dimension=meta.dimension)
            timings["embed"] = _ms(t)
        t = time.perf_counter()
        qvec = vector_param(vector)  # formatted once for the vector, graph and links queries
        # All fetch_k neighbours: fusion takes the weakest as the floor, the graph seeds from them.
        # Under a filter only `pool` must pass (asking for fetch_k would make the channel select
        # through the graph or grow its fetch whenever fewer than fetch_k match), `sized` of them:
        # the weakest is the floor fusion counts with, the same for every k up to SAME_RANKING_K.
        want = sized if filters is not None and filters.active else fetch_k
        vec = vector_search(ex, graph, qvec, k=want, fetch_k=fetch_k, full=full, as_of=as_of, filters=filters)
        timings["vector"] = _ms(t)
    similarity: dict[str, float] = {}
    graph_job = None
    if graph_on and qvec is not None:  # runs beside the keyword wait and the links query
        top = vec[: s.graph_seed_k]
        weights = seed_weights([sim for _, sim in top], temperature=s.graph_seed_temperature)
        graph_job = _POOL.submit(
            _timed, expand, ex, graph, qvec,
            seeds=[(a["id"], w) for (a, _), w in zip(top, weights, strict=True)],
            named=[key for key, _ in plan.entities], named_weight=s.graph_named_weight, max_score=s.graph_max_score, max_mentions=s.graph_max_mentions,
            per_entity=s.graph_per_entity, head_weight=s.graph_head_weight, tail_weight=s.graph_tail_weight, max_hops=plan.max_hops,
            hop_weight=s.graph_hop_weight, limit=max(s.graph_limit, pool), as_of=as_of, filters=filters,
            walk=Walk(relations=plan.relations, depth=min(plan.depth, s.graph_walk_depth), start=s.graph_walk_from,
                      per_entity=s.graph_walk_per_entity, fanout=s.graph_walk_fanout, weight=s.graph_walk_weight,
                      evidence=s.graph_evidence_weight, reach=s.graph_reach_weight, floor=min((sim for _, sim in vec), default=-2.0)),
        )  # fmt: skip
    if "vector" in wanted:
        lists["vector"] = [Candidate(a["id"], sim, "vector", i + 1) for i, (a, sim) in enumerate(vec)]
        for a, _ in vec:
            _keep(rows, a)
    mass = 0.0
    if keyword_job is not None:
        kw, timings["keyword"] = keyword_job.result()
        mass = kw.mass
        lists["keyword"] = [Candidate(a["id"], sc, "keyword", i + 1) for i, (a, sc) in enumerate(kw.hits)]
        for a, _ in kw.hits:
            _keep(rows, a)
    question = question_leanings(plan, text, tz)
    lean_weights = Leanings(
        speaker=s.speaker_weight, role=s.role_weight, asks=s.asks_penalty, brief=s.brief_penalty,
        impersonal=s.impersonal_penalty, time=s.time_weight,
        time_explicit=s.time_weight_explicit, order=s.order_weight,
    )  # fmt: skip

    called: dict[str, str] | None = None

    def fused_now() -> list[Fused]:
        """The channels so far, fused and leaned (before the links channel: its seeds; after: the ranking)."""
        nonlocal called
        weights = {"keyword": s.keyword_weight, "graph": s.graph_weight, "links": s.links_weight}
        if s.fusion == "rrf":
            return rrf(lists, k=s.rrf_k, weights=weights)
        found = fuse_scores(lists, similarity=similarity, weights=weights, units={"keyword": mass},
                            guard=s.fusion_guard)  # fmt: skip
        if trace:
            out.leaned = {}  # the last call's: the ranking the search returns
        if called is None:  # read once, from the first fusion (its candidates hold the turns that call)
            called = out.called = called_speakers(question, found, rows, ROLES) if s.speaker_weight else {}
        return lean(found, rows, question, lean_weights, roles=ROLES, trace=out.leaned if trace else None,
                    called=called)  # fmt: skip

    if links_on and qvec is not None:
        t = time.perf_counter()
        first = fused_now()
        seeds = link_seeds(first, rows, n=s.links_seeds, hybrid=plan.route == "hybrid")
        if seeds:
            linked = link_search(
                ex, graph, qvec, seeds=seeds, window=s.links_window, decay=s.links_decay,
                rare_max=s.links_rare_mentions, as_of=as_of, filters=filters,
            )  # fmt: skip
            lists["links"] = [Candidate(h.row["id"], h.weight, "links", i + 1) for i, h in enumerate(linked)]
            for link in linked:
                _keep(rows, link.row)
                similarity.setdefault(link.row["id"], link.sim)
                out.linked[link.row["id"]] = link.via
            if linked:
                plan = plan.model_copy(update={
                    "links": True, "route": "hybrid",
                    "rule": plan.rule + ("" if plan.route == "hybrid" else "; its first memories link to others"),
                })  # fmt: skip
                out.plan = plan
        timings["links"] = _ms(t)
    if graph_job is not None:
        reached, timings["graph"] = graph_job.result()
        lists["graph"] = [Candidate(h.row["id"], h.score, "graph", i + 1) for i, h in enumerate(reached)]
        for h in reached:
            _keep(rows, h.row)
            similarity.setdefault(h.row["id"], h.sim)
            out.paths[h.row["id"]] = h.paths
            out.via[h.row["id"]] = h.via
    if "vector" not in wanted:  # the graph ran on the vector channel's neighbours; their similarity still counts
        similarity.update({a["id"]: sim for a, sim in vec if a["id"] in similarity})
    out.channels = {name: [(c.id, c.score) for c in cands] for name, cands in lists.items()}
    out.similarity, out.units, out.rows, out.question = dict(similarity), {"keyword": mass}, rows, question

    t = time.perf_counter()
    out.fused = fused_now()
    timings["fuse"] = _ms(t)

    t = time.perf_counter()
    out.reranker, out.reranker_note = outcome.reranker.name, outcome.note
    if reranking:
        _fill(ex, graph, rows, [f.id for f in out.fused[: s.rerank_top_n]], timings)
    texts = {f.id: str(rows[f.id]["text"] or "") for f in out.fused[: s.rerank_top_n] if is_whole(rows[f.id])}
    out.reranked = rerank(text, out.fused, texts, outcome.reranker, top_n=s.rerank_top_n)
    timings["rerank"] = _ms(t)
    if s.recency_weight > 0:  # off by default: measured in the benchmark before turning it on
        out.reranked = recency_weighted(
            out.reranked, rows, weight=s.recency_weight, half_life_days=s.recency_half_life_days,
            now=as_of if as_of is not None else time.time(),
        )  # fmt: skip

    _fill(ex, graph, rows, [f.id for f in out.reranked[:k]], timings)
    for f in out.reranked[:k]:  # one scale per list: score is fused, rerank_score the reranker's
        if is_whole(rows[f.id]):  # (not: forgotten between the channel and the fetch)
            out.hits.append(hit_from_row(rows[f.id], f.score, dict(f.ranks), f.rerank_score))
    timings["total"] = _ms(t_all)
    out.timings_ms = timings
    return out
