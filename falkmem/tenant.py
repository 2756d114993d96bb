"""``Tenant``: the immutable per-tenant handle every SDK call goes through."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import InputError, LimitExceeded, NotFound
from .ingest.validate import Prepared, prepare
from .ingest.writer import write_batch
from .context.pack import ContextItem, pack
from .models import AddResult, ContextResult, Explain, Hit, Record, SearchResult
from .retrieval.pipeline import Retrieval, RouteArg, retrieve
from .routing.router import RouterConfig
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
            InputError: a field breaks a documented rule (nothing is written).
            StorageError: the store failed (nothing is written).
        """
        record = {
            "text": text, "id": id, "kind": kind, "session": session, "speaker": speaker,
            "agent": agent, "user": user, "at": at, "metadata": metadata, "key": key,
            "entities": entities, "triples": triples,
        }  # fmt: skip
        result = self.add_many([record])
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
        write at all. Ids that exist already are skipped (reported in ``skipped``).

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
        added: list[str] = []
        skipped: list[str] = []
        for start in range(0, len(prepared), batch_size):
            chunk = prepared[start : start + batch_size]
            out = write_batch(
                eng.store.executor, self.graph, chunk,
                embedder=eng.embedder, dimension=meta.dimension, now=now,
                extractor=eng.extractor, known=eng.known(self.id),
            )  # fmt: skip
            added.extend(out.added)
            skipped.extend(out.skipped)
            eng.note_entities(self.id, out.entity_keys)
            if on_progress is not None:
                on_progress(min(start + batch_size, len(prepared)), len(prepared))
        return AddResult(added=tuple(added), skipped=tuple(skipped))

    def delete(self, id: str) -> bool:
        """Delete one memory and its edges; False when no such id."""
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("ingest/delete_artifact"), {"id": id})
        return bool(rows and rows[0]["deleted"])

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
    ) -> SearchResult:
        """The ``k`` memories most relevant to ``query_text``, best first.

        The router picks the route: ``vector`` for a simple lookup, ``hybrid`` (vector +
        RELATED_TO walk, one round trip) when the query names several known entities or one
        with a relational cue. The keyword channel (BM25 over the full-text index) runs on
        both routes; channels are fused by reciprocal rank and reranked when a cross-encoder
        is configured.

        Args:
            query_text: the question.
            k: how many hits (1 to ``max_k``).
            route: ``auto`` (the router decides), or force ``vector`` / ``hybrid``.
            max_hops: how far the hybrid route walks (1–3; default from settings).
            channels: limit the channels (``vector``, ``keyword``, ``graph``); for benchmarks.
            router: router thresholds for this call (default from settings).

        Raises:
            InputError: empty query, query over the length limit, k out of range, bad route.
            TenantNotFound: the tenant does not exist (reading never creates it).
        """
        r = self._retrieve(query_text, k=k, route=route, max_hops=max_hops, channels=channels, router=router)
        return SearchResult(
            hits=tuple(r.hits), route=r.plan.route, reranker=r.reranker, timings_ms=r.timings_ms, plan=r.plan
        )

    def explain(
        self,
        query_text: str,
        *,
        k: int = 10,
        route: RouteArg = "auto",
        max_hops: int | None = None,
    ) -> Explain:
        """Run a search and return every stage: plan, channels, fusion, rerank, timings, paths."""
        r = self._retrieve(query_text, k=k, route=route, max_hops=max_hops)
        return Explain(
            query_route=r.plan.route, plan=r.plan, channels=r.channels,
            fused=[(f.id, f.score) for f in r.fused],
            reranked=[(f.id, f.rerank_score if f.rerank_score is not None else f.score) for f in r.reranked],
            reranker=r.reranker, reranker_note=r.reranker_note,
            paths={i: [list(p) for p in ps] for i, ps in r.paths.items()},
            hits=tuple(r.hits), timings_ms=r.timings_ms, max_hops=r.plan.max_hops,
            depth_reached=max((len(p) for ps in r.paths.values() for p in ps), default=0),
        )  # fmt: skip

    def context(
        self,
        query_text: str,
        *,
        budget_tokens: int | None = None,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        k: int | None = None,
    ) -> ContextResult:
        """Compressed context for a prompt: the best memories packed into ``budget_tokens``.

        Duplicates are dropped, long memories keep only the sentences that share the query's
        terms, episodes are ordered by time when the question refers back, graph evidence is
        rendered as compact triples, and every line carries its provenance (id · session ·
        time). The text never exceeds the budget under the configured token counter.
        """
        eng = self._engine
        budget = budget_tokens if budget_tokens is not None else eng.settings.context_budget_tokens
        if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0:
            raise InputError("budget_tokens", "must be a positive integer")
        n = k if k is not None else eng.settings.context_candidates
        r = self._retrieve(query_text, k=n, route=route, max_hops=max_hops)
        t = time.perf_counter()
        items = [
            ContextItem(
                id=h.id, text=h.text, score=h.score, session=h.session, at=h.valid_at, kind=h.kind,
                triples=tuple(dict.fromkeys(tr for p in r.paths.get(h.id, ()) for tr in p)),
                superseded=h.status == "superseded",
            )
            for h in r.hits
        ]  # fmt: skip
        counter = eng.token_counter
        packed = pack(query_text, items, budget_tokens=budget, counter=counter)
        timings = dict(r.timings_ms)
        timings["pack"] = round((time.perf_counter() - t) * 1000, 3)
        return ContextResult(
            text=packed.text, tokens=packed.tokens, budget_tokens=budget, token_counter=counter.name,
            used=packed.used, dropped=packed.dropped, hits=tuple(r.hits), route=r.plan.route,
            reranker=r.reranker, timings_ms=timings, plan=r.plan,
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
    ) -> Retrieval:
        s = self._engine.settings
        _check_query(query_text, k, max_chars=s.max_query_chars, max_k=s.max_k)
        return retrieve(
            self._engine, self.id, query_text, k=k, route=route, max_hops=max_hops,
            channels=channels, router=router,
        )  # fmt: skip


def _check_query(text: object, k: object, *, max_chars: int, max_k: int) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InputError("query", "must be a non-empty string")
    if len(text) > max_chars:
        raise LimitExceeded("query", f"is {len(text)} characters; the limit is {max_chars}")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= max_k:
        raise LimitExceeded("k", f"must be an integer between 1 and {max_k}")
