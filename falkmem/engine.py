"""The shared machinery behind every tenant handle: settings, store, embedder, extractor, caches."""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterable
from datetime import datetime

from .config import RouterConfig
from .context.tokens import TokenCounter, make_counter
from .embedding.base import Embedder
from .errors import DimensionMismatch, TenantNotFound
from .extraction.known import KnownEntities
from .extraction.types import Extractor
from .ranking.rerank import Reranker, RerankOutcome, load_reranker
from .routing.router import Plan, Route, plan_query
from .settings import Settings
from .storage.cypher import query
from .storage.store import Store, TenantMeta


class Engine:
    """Owns the store connection, the models and the per-tenant known-entity indexes."""

    def __init__(
        self,
        settings: Settings,
        *,
        embedder: Embedder,
        extractor: Extractor | None,
        reranker: Reranker | str | None = None,
        token_counter: TokenCounter | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.extractor = extractor
        self._reranker_spec = reranker if reranker is not None else settings.reranker
        self._rerank_outcome: RerankOutcome | None = None
        self.token_counter: TokenCounter = (
            token_counter if token_counter is not None else make_counter(settings.token_counter)
        )
        self.store = Store(settings)
        self._known: dict[str, KnownEntities] = {}
        self._mentions: dict[str, dict[str, int]] = {}
        self._stamps: dict[str, int | None] = {}
        """Per tenant, the entity stamp its known-entity index is current with (None: no tenant)."""
        self._lock = threading.RLock()

    def with_embedder(self, embedder: Embedder) -> Engine:
        """This engine with another embedder: the same store connection, caches and lock (an
        integration whose tenants embed with their own model, e.g. the LangGraph store's
        ``index={"embed": ...}``). Closing either closes the shared store."""
        twin = copy.copy(self)
        twin.embedder = embedder
        twin._rerank_outcome = None
        return twin

    def plan(
        self,
        tenant_id: str,
        text: str,
        config: RouterConfig,
        *,
        force: Route | None,
        now: datetime | None = None,
    ) -> Plan:
        """Route one query against the tenant's known entities (``now``: naive wall-clock time in
        the ``timezone`` setting's zone, or the clock in UTC)."""
        known = self.known(tenant_id)
        with self._lock:  # KnownEntities is not safe for add() during find()
            return plan_query(
                text, known, config, force=force, now=now, mentions=self._mentions.get(tenant_id),
                max_mentions=self.settings.graph.max_mentions,
            )  # fmt: skip

    def reranker(self) -> RerankOutcome:
        """The reranker every search uses, loaded once (and what happened when loading it)."""
        with self._lock:
            if self._rerank_outcome is None:
                spec = self._reranker_spec
                if isinstance(spec, str) or spec is None:
                    self._rerank_outcome = load_reranker(
                        spec, on_error="fallback" if self.settings.reranker_fallback else "raise"
                    )
                else:
                    self._rerank_outcome = RerankOutcome(spec, f"reranked by {spec.name}", spec.name)
            return self._rerank_outcome

    def ensure_tenant(self, tenant_id: str) -> TenantMeta:
        """Create (on first write) and migrate a tenant; check the embedder matches it."""
        meta = self.store.ensure(tenant_id, dimension=self.embedder.dimension, embedder=self.embedder.name)
        self.check_dimension(tenant_id, meta)
        return meta

    def check_dimension(self, tenant_id: str, meta: TenantMeta) -> None:
        if meta.dimension != self.embedder.dimension:
            raise DimensionMismatch(
                "embedder",
                f"tenant {tenant_id!r} stores {meta.dimension}-dimensional vectors from"
                f" {meta.embedder!r}, but the configured embedder {self.embedder.name!r} makes"
                f" {self.embedder.dimension}; open it with the same embedder",
            )

    def known(self, tenant_id: str, *, fresh: bool = True) -> KnownEntities:
        """The tenant's entity keys → names: loaded once per process, kept up to date by this
        process's writes, and reloaded when another process wrote.

        ``fresh``: compare the tenant's entity stamp (``_Meta.entity_stamp``, one small read)
        with the one the index was loaded at; every search does. Writes that create memories
        and erases that delete entities or recount their mentions (this process's too) move
        the stamp.
        """
        with self._lock:
            k = self._known.get(tenant_id)
            seen = self._stamps.get(tenant_id)
        if k is not None and (not fresh or self._stamp(tenant_id) == seen):
            return k
        with self._lock:
            stamp = self._stamp(tenant_id)  # before the entities: a write between shows next time
            rows = self._load_entities(tenant_id)
            k = KnownEntities((key, name) for key, name, _ in rows)
            self._known[tenant_id] = k
            self._mentions[tenant_id] = {key: n for key, _, n in rows}
            self._stamps[tenant_id] = stamp
            return k

    def _stamp(self, tenant_id: str) -> int | None:
        try:
            rows = self.store.executor.run(self.store.graph(tenant_id), query("admin/read_entity_stamp"))
        except TenantNotFound:
            return None
        return int(rows[0]["stamp"]) if rows else None

    def _load_entities(self, tenant_id: str) -> list[tuple[str, str, int]]:
        if not self.store.exists(tenant_id):
            return []
        rows = self.store.executor.run(self.store.graph(tenant_id), query("retrieve/entity_names"))
        return [(str(r["key"]), str(r["name"]), int(r["mentions"] or 0)) for r in rows]

    def note_entities(
        self, tenant_id: str, pairs: Iterable[tuple[str, str]], *, stamps: Iterable[int] = ()
    ) -> None:
        """Add what a write referenced to the known-entity index and its mention counts (one
        pair per reference: how many memories name each entity, as the graph counts them).

        ``stamps``: the entity stamps the write's queries returned. Each one above the last seen
        (+1) is this write's own; a larger step means another process wrote in between, and
        the next ``known()`` reloads the index.
        """
        k = self.known(tenant_id, fresh=False)
        with self._lock:
            counts = self._mentions.setdefault(tenant_id, {})
            for key, name in pairs:
                canon = k.add(key, name)
                counts[canon] = counts.get(canon, 0) + 1
            for stamp in stamps:
                seen = self._stamps.get(tenant_id)
                base = 0 if seen is None else seen  # None: the write created the tenant
                self._stamps[tenant_id] = stamp if base <= stamp <= base + 1 else -1  # -1: stale

    def discard_entities(self, tenant_id: str, keys: Iterable[str]) -> None:
        """Drop erased entities from the tenant's known-entity index (when it is loaded)."""
        with self._lock:
            k = self._known.get(tenant_id)
            counts = self._mentions.get(tenant_id, {})
            if k is not None:
                for key in keys:
                    k.discard(key)
                    counts.pop(key, None)

    def drop_known(self, tenant_id: str) -> None:
        """Forget the tenant's known-entity index and mention counts: the next ``known()``
        reloads them from the graph (after a write that failed part-way through a pipeline)."""
        with self._lock:
            self._known.pop(tenant_id, None)
            self._mentions.pop(tenant_id, None)
            self._stamps.pop(tenant_id, None)

    def forget_tenant(self, tenant_id: str) -> None:
        with self._lock:
            self._known.pop(tenant_id, None)
            self._mentions.pop(tenant_id, None)
            self._stamps.pop(tenant_id, None)
        self.store.forget_cached(tenant_id)

    def close(self) -> None:
        self.store.close()
