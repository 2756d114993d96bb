"""``Tenant``: the immutable per-tenant handle every SDK call goes through."""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Unpack

from . import batch
from .config import RouterConfig
from .context.items import candidates_for, context_items
from .context.pack import pack
from .errors import InputError, LimitExceeded, NotFound
from .evolution import ops as evo
from .evolution.classifier import Classifier
from .evolution.keys import KeyPolicy
from .ingest.validate import Prepared, prepare, valid_unicode
from .ingest.writer import WriteOutcome, write_batches
from .models import (
    AddResult,
    ConsolidateResult,
    ContextResult,
    ContextSource,
    Explain,
    ForgetResult,
    HealthReport,
    History,
    Hit,
    MaintainResult,
    MemoryPage,
    ReconcileResult,
    Record,
    SearchResult,
)
from .retrieval.filters import FilterArgs, Filters, build_filters, check_filter_names
from .retrieval.pipeline import Retrieval, RouteArg, retrieve
from .settings import zone
from .storage.cypher import query
from .storage.rows import hit_from_row

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True, slots=True)
class Tenant:
    """One tenant's memory. Get it with ``Memory.tenant(id)``; it cannot be re-pointed."""

    id: str
    _engine: Engine

    @property
    def graph(self) -> str:
        """The FalkorDB graph key holding this tenant."""
        return self._engine.store.graph(self.id)

    # --- writing ------------------------------------------------------------------------
    def add(
        self,
        text: str,
        *,
        id: str | None = None,
        kind: str = "episode",
        session: str | None = None,
        speaker: str | None = None,
        agent: str | None = None,
        user: str | None = None,
        at: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
        key: str | None = None,
        entities: Sequence[str | dict[str, str]] | None = None,
        triples: Sequence[tuple[str, str, str] | dict[str, str]] | None = None,
    ) -> str:
        """Remember one memory and return its id (the given one, or a generated one).

        Adding an id that exists already changes nothing (idempotent).

        Raises:
            InputError: a field breaks a documented rule, named as the argument (``text``,
                ``kind``...); nothing is written.
            StorageError: the store failed (nothing is written).
        """
        record = {
            "text": text, "id": id, "kind": kind, "session": session, "speaker": speaker,
            "agent": agent, "user": user, "at": at, "metadata": metadata, "key": key,
            "entities": entities, "triples": triples,
        }  # fmt: skip
        try:
            result = self.add_many([record])
        except InputError as exc:  # add_many names records[0].<field>: name the argument
            raise type(exc)(exc.field.removeprefix("records[0]."), exc.rule) from None
        return (result.added or result.skipped)[0]

    def add_many(
        self,
        records: Iterable[Record | dict[str, Any]],
        *,
        batch_size: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> AddResult:
        """Remember many memories: one embedding call and one atomic write per batch.

        Every record is validated before anything is written, so one bad record means no
        write at all. Ids that exist already are skipped (reported in ``skipped``). The records
        are therefore all read (and held) before the first write: for a very large import, call
        it once per chunk (tens of thousands of records; 900,000 records with their vectors took
        14 GB).

        Args:
            records: dicts with the fields of :class:`~falkmem.Record`, or Records.
            batch_size: records per embedding call and per write query.
            on_progress: called as ``on_progress(done, total)`` after each batch.

        Raises:
            InputError: a record breaks a rule; the message names the record index and field.
        """
        eng = self._engine
        s = eng.settings
        if not isinstance(batch_size, int) or not 1 <= batch_size <= s.max_batch:
            raise LimitExceeded("batch_size", f"must be between 1 and {s.max_batch}")
        now = time.time()
        prepared: list[Prepared] = []
        for i, r in enumerate(records):
            try:
                prepared.append(prepare(r, s, now=now))
            except InputError as exc:
                raise type(exc)(f"records[{i}].{exc.field}", exc.rule) from None
        if not prepared:
            return AddResult(added=(), skipped=())
        meta = eng.ensure_tenant(self.id)
        policy = (
            KeyPolicy(frozenset(s.single_valued_relations), frozenset(s.derive_key_kinds))
            if s.derive_keys
            else None
        )
        added: list[str] = []
        skipped: list[str] = []

        def planned(i: int, keys: tuple[tuple[str, str], ...]) -> None:
            eng.note_entities(self.id, keys)  # before its write: the next batch's extraction sees them

        def written(i: int, out: WriteOutcome) -> None:
            added.extend(out.added)
            skipped.extend(out.skipped)
            eng.note_entities(self.id, (), stamps=out.stamps)
            if on_progress is not None:
                on_progress(min((i + 1) * batch_size, len(prepared)), len(prepared))

        # Pipelined: the next batch is embedded and extracted while this one is written.
        try:
            write_batches(
                eng.store.executor, self.graph,
                [prepared[start : start + batch_size] for start in range(0, len(prepared), batch_size)],
                embedder=eng.embedder, dimension=meta.dimension, now=now,
                extractor=eng.extractor, known=eng.known(self.id), key_policy=policy,
                on_planned=planned, on_written=written,
            )  # fmt: skip
        except BaseException:
            eng.drop_known(self.id)  # it may hold entities of a batch that was not written
            raise
        return AddResult(added=tuple(added), skipped=tuple(skipped))

    def delete(self, id: str) -> bool:
        """Delete one memory, with the same clean-up as ``forget(id)``; False when no such id."""
        return self.forget(id).artifacts > 0

    # --- evolving -------------------------------------------------------------------------
    def forget(self, id: str | None = None, **filters: Unpack[FilterArgs]) -> ForgetResult:
        """Erase memories for good: one id, a whole session, everything of one user, or every
        memory (any status) matching filters (the same filters as ``search``, ANDed).

        Erased memories are deleted, not flagged: text, embedding, metadata and links go.
        RELATED_TO evidence that only they held is deleted (else their ids leave the edge and its
        weight shrinks), entities no remaining memory references are deleted, empty sessions
        (and, for ``user=``, the user's node) too; the keyword statistics are updated. Work is
        done in atomic pages of ``forget_page`` memories; only this tenant's graph is touched.

        Raises:
            InputError: no selector, or an id together with filters; a bad filter (named).
            TenantNotFound: the tenant does not exist.
        """
        check_filter_names(filters)
        session, user = filters.get("session"), filters.get("user")
        others = (v for k, v in filters.items() if k not in ("session", "user"))
        plain = all(v is None for v in others) and all(
            v is None or isinstance(v, str) for v in (session, user)
        )
        if plain and sum(v is not None for v in (id, session, user)) <= 1:  # one id, session or user
            return evo.forget_memories(self._engine, self.id, id, session, user)
        if id is not None:
            raise InputError("forget", "give an id or filters, not both")
        f = build_filters(**filters)
        if f is None:
            raise InputError("forget", "name what to forget: an id, session=... or user=... or other filters")
        return batch.forget_filtered(self._engine, self.id, f)

    def delete_many(self, ids: Sequence[str]) -> ForgetResult:
        """Delete memories by id (missing ids are ignored), with ``forget``'s clean-up, in atomic
        pages of ``forget_page``.

        Raises:
            InputError: not a list of ids, or more than ``max_batch``.
        """
        return batch.delete_many(self._engine, self.id, ids)

    def history(self, key: str | None = None, *, entity: str | None = None, limit: int = 100) -> History:
        """The versions of a fact key, or the memories about an entity, oldest first.

        Each entry says what replaced it (``superseded_by``, ``reason``), when it stopped being
        true (``invalid_at``) and what it replaced. Erased memories are not in it. ``limit`` keeps
        the newest versions.

        Raises:
            NotFound: no fact has this key / no entity has this name.
            InputError: neither or both of key and entity; limit out of range.
        """
        return evo.history(self._engine, self.id, key, entity, limit)

    def maintain(self, *, now: datetime | str | None = None) -> MaintainResult:
        """Apply the retention policy (``retention_days``, a TTL per kind, on ``created_at``)
        and clean up orphan entities and empty sessions. ``now`` overrides the clock. Memories
        written before metadata filters existed get the pairs those filters match."""
        result = evo.maintain(self._engine, self.id, evo.as_of_timestamp(now, "now"))
        batch.backfill_meta_kv(self._engine, self.id)
        return result

    def consolidate(self, *, threshold: float | None = None, dry_run: bool = False) -> ConsolidateResult:
        """Link near-duplicate active memories under one canonical memory (no LLM).

        Memories without a fact key whose embeddings reach ``threshold`` cosine similarity
        (default ``consolidate_threshold``) and carry the same numbers are grouped; the oldest
        is canonical, the others get ``(dup)-[:DUPLICATE_OF]->(canonical)``, ``canonical_id``
        and status ``superseded`` (kept as provenance). At most ``consolidate_max`` memories are
        scanned (``truncated`` says so).
        """
        return evo.consolidate(self._engine, self.id, threshold, dry_run)

    def health(self) -> HealthReport:
        """Orphan entities, duplicate candidates, superseded ratio, edges per node, largest hubs."""
        return evo.health(self._engine, self.id)

    def reconcile(
        self, id: str, *, classifier: Classifier, k: int = 5, min_similarity: float = 0.6
    ) -> ReconcileResult:
        """Classify one memory against its ``k`` nearest active neighbours and act on it.

        ``duplicate`` links the newer under the older (DUPLICATE_OF); ``refinement``,
        ``supersession`` and ``contradiction`` retire the one with the older ``valid_at``
        (SUPERSEDES, with the verdict as ``reason``); ``unrelated`` changes nothing. Facts of
        the same key are left to their key.

        Raises:
            NotFound: no memory has this id.
            ExtractionError: the classifier failed.
        """
        return evo.reconcile(self._engine, self.id, id, classifier, k, min_similarity)

    # --- reading ------------------------------------------------------------------------
    def get(self, id: str) -> Hit:
        """The memory with this id (any status).

        Raises:
            NotFound: no memory has this id.
            TenantNotFound: the tenant does not exist.
        """
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("retrieve/get_artifacts"), {"ids": [id]})
        if not rows:
            raise NotFound(f"tenant {self.id!r} has no memory with id {id!r}")
        return hit_from_row(rows[0]["a"], 1.0)

    def get_many(self, ids: Sequence[str]) -> builtins.list[Hit]:
        """The memories with these ids (any status), in the order asked; unknown ids are left out.

        One query for up to ``max_batch`` ids.

        Raises:
            InputError: not a list of ids, or more than ``max_batch``.
            TenantNotFound: the tenant does not exist.
        """
        return batch.get_many(self._engine, self.id, ids)

    def count(self) -> int:
        """Number of active memories."""
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("retrieve/count_artifacts"))
        return int(rows[0]["n"]) if rows else 0

    def search(
        self,
        query_text: str,
        *,
        k: int = 10,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        channels: Collection[str] | None = None,
        router: RouterConfig | None = None,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        min_relevance: float | None = None,
        **filters: Unpack[FilterArgs],
    ) -> SearchResult:
        """The ``k`` memories most relevant to ``query_text``, best first.

        The router picks the route: ``vector`` for a simple lookup, ``hybrid`` when the query
        names a known entity (``router_entity_threshold``). The keyword channel (BM25 over the
        full-text index) runs on both routes; the hybrid route adds the graph channel (one
        round trip: from the first vector hits' entities and the entities the query names to
        the memories about them). Channels are fused by score (the dense similarity plus
        weighted keyword and graph evidence; ``fusion="rrf"`` for rank fusion) and reranked
        when a cross-encoder is configured.

        Args:
            query_text: the question.
            k: how many hits (1 to ``max_k``).
            route: ``auto`` (the router decides), or force ``vector`` / ``hybrid``.
            max_hops: how far the hybrid route walks (1–3; default from settings).
            channels: limit the channels (``vector``, ``keyword``, ``graph``); for benchmarks.
            router: router thresholds for this call (default from settings).
            as_of: answer what was true then (a datetime or ISO-8601; naive = UTC):
                memories with ``valid_at <= as_of < invalid_at``, superseded ones included.
                Default: the active memories only.
            now: when the question is asked (a datetime or ISO-8601; naive = UTC; default:
                the clock): what relative dates in it ("last Saturday", "three weeks ago") and
                dates without a year ("in May") are resolved against.
            min_relevance: drop the hits whose ``relevance`` is below this (0 to 1; a question
                the tenant's memories do not answer then gets no hit). Default: the setting
                ``relevance.min_relevance`` (None: keep every hit); the dev sets recommend
                :data:`~falkmem.config.RECOMMENDED_MIN_RELEVANCE` (docs/relevance.md).
            **filters: ``session``, ``user``, ``agent``, ``speaker``, ``kind``, ``since``, ``until``,
                ``metadata``, as :class:`~falkmem.retrieval.filters.FilterArgs` describes them.

        Raises:
            InputError: empty query, query over the length limit, k out of range, bad route,
                bad ``as_of``, ``min_relevance`` not a number in [0, 1].
            TenantNotFound: the tenant does not exist (reading never creates it).
        """
        floor = self._min_relevance(min_relevance)
        f = build_filters(**filters)
        r = self._retrieve(
            query_text, k=k, route=route, max_hops=max_hops, channels=channels, router=router, as_of=as_of,
            now=now, filters=f,
        )  # fmt: skip
        return SearchResult(
            hits=_kept(r.hits, floor),
            route=r.plan.route,
            reranker=r.reranker,
            timings_ms=r.timings_ms,
            plan=r.plan,
        )

    def _min_relevance(self, value: object) -> float | None:
        """The call's ``min_relevance``, else the setting's; checked."""
        if value is None:
            return self._engine.settings.relevance.min_relevance
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
            raise InputError("min_relevance", "must be a number from 0 to 1 (or None: keep every hit)")
        return float(value)

    def explain(
        self,
        query_text: str,
        *,
        k: int = 10,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        **filters: Unpack[FilterArgs],
    ) -> Explain:
        """Run a search and return every stage: plan, channels, fusion, rerank, timings, paths.
        ``as_of`` and the filters as in ``search``."""
        f = build_filters(**filters)
        r = self._retrieve(query_text, k=k, route=route, max_hops=max_hops, as_of=as_of, now=now, filters=f,
                           trace=True)  # fmt: skip
        return Explain(
            query_route=r.plan.route, plan=r.plan, channels=r.channels,
            fused=[(f.id, f.score) for f in r.fused],
            reranked=[(f.id, f.rerank_score) for f in r.reranked if f.rerank_score is not None],
            reranker=r.reranker, reranker_note=r.reranker_note,
            paths={i: [list(p) for p in ps] for i, ps in r.paths.items()},
            hits=tuple(r.hits), timings_ms=r.timings_ms, max_hops=r.plan.max_hops,
            depth_reached=max((1 + len(p) for ps in r.paths.values() for p in ps), default=1 if r.via else 0),
            via={i: list(v) for i, v in r.via.items()}, linked=dict(r.linked), units=dict(r.units),
            similarity=dict(r.similarity), leanings={i: dict(v) for i, v in r.leaned.items()},
            weights=dict(r.weights),
            stages=list(r.stages),
        )  # fmt: skip

    def context(
        self,
        query_text: str,
        *,
        budget_tokens: int | None = None,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        k: int | None = None,
        include_history: bool = False,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        **filters: Unpack[FilterArgs],
    ) -> ContextResult:
        """Compressed context for a prompt: the sentences of the best memories that carry the
        answer, packed into ``budget_tokens``.

        Superseded and (near-)duplicate memories are dropped; each memory is cut into sentences
        and the sentences are chosen by relevance per token: the question's words, the bridge
        entities the graph followed, what the question asks for (a date for "when"), a day
        the question names ("last Saturday", read against ``now``) that a sentence's "today"
        or "yesterday" means, the memory's rank; a sentence that leans on the one before
        comes with it, turns of one session share a line, lines are ordered by time when the
        question refers back. Each
        line carries a short label (``[1]``); ``sources`` (and ``legend``) of the result map
        the labels to memory ids, sessions and times (docs/context.md). The text never
        exceeds the budget under the configured token counter.

        The sentences come from the ``k`` best memories of the search: by default
        ``context_candidates`` (20) up to 800 tokens, and more for a larger budget, twice as many
        from 1,200 tokens (``context.items.candidates_for``).

        Superseded memories are left out unless ``include_history=True``, which also adds the
        earlier versions of the keyed facts found, marked with when they stopped being true.
        ``as_of`` packs what was true then, the filters select as in ``search``.
        """
        eng = self._engine
        budget = budget_tokens if budget_tokens is not None else eng.settings.context_budget_tokens
        if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0:
            raise InputError("budget_tokens", "must be a positive integer")
        # k= is checked against max_k; the number the budget derives is held to it
        n = (
            k
            if k is not None
            else min(candidates_for(budget, eng.settings.context_candidates), eng.settings.max_k)
        )
        f = build_filters(**filters)
        r = self._retrieve(query_text, k=n, route=route, max_hops=max_hops, as_of=as_of, now=now, filters=f)
        t = time.perf_counter()
        items = context_items(r.hits, paths=r.paths, via=r.via, as_of=as_of is not None)
        if include_history:
            items += evo.history_items(eng, self.id, r.hits)
        counter = eng.token_counter
        packed = pack(
            query_text,
            items,
            budget_tokens=budget,
            counter=counter,
            history=True if include_history else None,
            dates=eng.settings.context_dates,
            tz=zone(eng.settings.timezone),
            window=(r.plan.time.start, r.plan.time.end) if r.plan.time is not None else None,
            weights=eng.settings.packing,
        )
        timings = dict(r.timings_ms)
        timings["pack"] = round((time.perf_counter() - t) * 1000, 3)
        sources = tuple(
            ContextSource(label=s.label, ids=s.ids, session=s.session, times=s.times, partial=s.partial)
            for s in packed.sources
        )
        return ContextResult(
            text=packed.text, tokens=packed.tokens, budget_tokens=budget, token_counter=counter.name,
            used=packed.used, dropped=packed.dropped, hits=tuple(r.hits), route=r.plan.route,
            reranker=r.reranker, timings_ms=timings, plan=r.plan, sources=sources,
        )  # fmt: skip

    def _retrieve(
        self,
        query_text: str,
        *,
        k: int,
        route: RouteArg,
        max_hops: int | None,
        channels: Collection[str] | None = None,
        router: RouterConfig | None = None,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        filters: Filters | None = None,
        vector: Sequence[float] | None = None,
        trace: bool = False,
    ) -> Retrieval:
        s = self._engine.settings
        _check_query(query_text, k, max_chars=s.max_query_chars, max_k=s.max_k)
        ts = evo.as_of_timestamp(as_of)
        return retrieve(
            self._engine, self.id, query_text, k=k, route=route, max_hops=max_hops,
            channels=channels, router=router, as_of=ts, now=evo.as_of_timestamp(now, "now"), vector=vector,
            filters=filters, trace=trace,
        )  # fmt: skip

    # --- batches and paging (list shadows the builtin inside the class: keep these last) ----
    def search_many(
        self,
        queries: Sequence[str],
        *,
        k: int = 10,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        channels: Collection[str] | None = None,
        router: RouterConfig | None = None,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        min_relevance: float | None = None,
        **filters: Unpack[FilterArgs],
    ) -> builtins.list[SearchResult]:
        """``search`` for each query, in order, with ONE embedding call for all of them.

        Takes the options (``min_relevance`` included) and filters of ``search``; at most
        ``max_batch`` queries.

        Raises:
            InputError: not a list of queries, a bad query (``queries[i]``), or a bad option.
            TenantNotFound: the tenant does not exist.
        """
        s = self._engine.settings
        if isinstance(queries, str) or not isinstance(queries, Sequence):
            raise InputError("queries", "must be a list of query strings")
        if len(queries) > s.max_batch:
            raise LimitExceeded("queries", f"at most {s.max_batch} per call")
        for i, q in enumerate(queries):
            try:
                _check_query(q, k, max_chars=s.max_query_chars, max_k=s.max_k)
            except InputError as exc:
                raise type(exc)(f"queries[{i}]" if exc.field == "query" else exc.field, exc.rule) from None
        floor = self._min_relevance(min_relevance)
        f = build_filters(**filters)
        ts, ts_now = evo.as_of_timestamp(as_of), evo.as_of_timestamp(now, "now")
        vectors = batch.embed_queries(self._engine, self.id, queries)
        out: builtins.list[SearchResult] = []
        for q, v in zip(queries, vectors, strict=True):
            r = retrieve(
                self._engine, self.id, q, k=k, route=route, max_hops=max_hops, channels=channels,
                router=router, as_of=ts, now=ts_now, vector=v, filters=f,
            )  # fmt: skip
            res = SearchResult(
                hits=_kept(r.hits, floor),
                route=r.plan.route,
                reranker=r.reranker,
                timings_ms=r.timings_ms,
                plan=r.plan,
            )
            out.append(res)
        return out

    def list(
        self,
        *,
        cursor: str | None = None,
        limit: int = 100,
        include_history: bool = False,
        **filters: Unpack[FilterArgs],
    ) -> MemoryPage:
        """One page of this tenant's memories, oldest first (``created_at``, then id).

        Pass the page's ``next_cursor`` as ``cursor`` for the next one (None: last page). Takes
        the filters of ``search``; ``include_history`` adds superseded memories.

        Raises:
            InputError: a bad cursor, limit (1–1000) or filter (named).
            TenantNotFound: the tenant does not exist.
        """
        f = build_filters(**filters)
        return batch.list_page(
            self._engine, self.id, f, cursor=cursor, limit=limit, include_history=include_history
        )


def _kept(hits: Sequence[Hit], floor: float | None) -> tuple[Hit, ...]:
    """The hits at or above ``floor`` relevance, in order (all of them when ``floor`` is None)."""
    if floor is None:
        return tuple(hits)
    return tuple(h for h in hits if h.relevance is not None and h.relevance >= floor)


def _check_query(text: object, k: object, *, max_chars: int, max_k: int) -> None:
    # the rules of a memory's text (ingest/validate.py): NUL cannot be sent to the server
    if not isinstance(text, str) or not text.strip():
        raise InputError("query", "must be a non-empty string (whitespace alone is not a question)")
    if len(text) > max_chars:
        raise LimitExceeded("query", f"is {len(text)} characters; the limit is {max_chars}")
    if "\x00" in text:
        raise InputError("query", "must not contain NUL characters")
    valid_unicode(text, "query")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= max_k:
        raise LimitExceeded("k", f"must be an integer between 1 and {max_k}")
