"""``AsyncMemory`` / ``AsyncTenant``: the same surface as ``Memory`` / ``Tenant`` for asyncio code.

Each call runs the sync implementation in a worker thread (``asyncio.to_thread``). The work is
dominated by CPU-bound embedding and short server round trips, so a second, hand-copied
async implementation would buy little and drift (the parity test in
``tests/unit/test_async_parity.py`` checks both surfaces stay the same).
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from .config import RouterConfig
from .context.tokens import TokenCounter
from .embedding.base import Embedder
from .evolution.classifier import Classifier
from .extraction.base import Extractor
from .memory import Memory
from .models import (
    AddResult,
    ConsolidateResult,
    ContextResult,
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
from .ranking.rerank import Reranker
from .retrieval.filters import OneOrMany
from .retrieval.pipeline import RouteArg
from .settings import Settings
from .tenant import Tenant


@dataclass(frozen=True, slots=True)
class AsyncTenant:
    """Async twin of :class:`~falkmem.tenant.Tenant`."""

    _sync: Tenant

    @property
    def id(self) -> str:
        return self._sync.id

    @property
    def graph(self) -> str:
        return self._sync.graph

    async def add(
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
        return await asyncio.to_thread(
            self._sync.add, text, id=id, kind=kind, session=session, speaker=speaker,
            agent=agent, user=user, at=at, metadata=metadata, key=key,
            entities=entities, triples=triples,
        )  # fmt: skip

    async def add_many(
        self,
        records: Iterable[Record | dict[str, Any]],
        *,
        batch_size: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> AddResult:
        return await asyncio.to_thread(
            self._sync.add_many, list(records), batch_size=batch_size, on_progress=on_progress
        )

    async def delete(self, id: str) -> bool:
        return await asyncio.to_thread(self._sync.delete, id)

    async def forget(
        self,
        id: str | None = None,
        *,
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> ForgetResult:
        return await asyncio.to_thread(
            self._sync.forget,
            id,
            session=session,
            user=user,
            agent=agent,
            speaker=speaker,
            kind=kind,
            since=since,
            until=until,
            metadata=metadata,
        )

    async def delete_many(self, ids: Sequence[str]) -> ForgetResult:
        return await asyncio.to_thread(self._sync.delete_many, list(ids))

    async def history(
        self, key: str | None = None, *, entity: str | None = None, limit: int = 100
    ) -> History:
        return await asyncio.to_thread(self._sync.history, key, entity=entity, limit=limit)

    async def maintain(self, *, now: datetime | str | None = None) -> MaintainResult:
        return await asyncio.to_thread(self._sync.maintain, now=now)

    async def consolidate(
        self, *, threshold: float | None = None, dry_run: bool = False
    ) -> ConsolidateResult:
        return await asyncio.to_thread(self._sync.consolidate, threshold=threshold, dry_run=dry_run)

    async def health(self) -> HealthReport:
        return await asyncio.to_thread(self._sync.health)

    async def reconcile(
        self, id: str, *, classifier: Classifier, k: int = 5, min_similarity: float = 0.6
    ) -> ReconcileResult:
        return await asyncio.to_thread(
            self._sync.reconcile, id, classifier=classifier, k=k, min_similarity=min_similarity
        )

    async def get(self, id: str) -> Hit:
        return await asyncio.to_thread(self._sync.get, id)

    async def get_many(self, ids: Sequence[str]) -> builtins.list[Hit]:
        return await asyncio.to_thread(self._sync.get_many, list(ids))

    async def count(self) -> int:
        return await asyncio.to_thread(self._sync.count)

    async def search(
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
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> SearchResult:
        return await asyncio.to_thread(
            self._sync.search, query_text, k=k, route=route, max_hops=max_hops, channels=channels,
            router=router, as_of=as_of, now=now, session=session, user=user, agent=agent, speaker=speaker, kind=kind, since=since, until=until, metadata=metadata,
        )  # fmt: skip

    async def explain(
        self,
        query_text: str,
        *,
        k: int = 10,
        route: RouteArg = "auto",
        max_hops: int | None = None,
        as_of: datetime | str | None = None,
        now: datetime | str | None = None,
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Explain:
        return await asyncio.to_thread(
            self._sync.explain, query_text, k=k, route=route, max_hops=max_hops, as_of=as_of, now=now,
            session=session, user=user, agent=agent, speaker=speaker, kind=kind, since=since, until=until, metadata=metadata,
        )  # fmt: skip

    async def context(
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
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> ContextResult:
        return await asyncio.to_thread(
            self._sync.context, query_text, budget_tokens=budget_tokens, route=route, max_hops=max_hops, k=k,
            include_history=include_history, as_of=as_of, now=now, session=session, user=user, agent=agent, speaker=speaker, kind=kind, since=since, until=until, metadata=metadata,
        )  # fmt: skip

    # list shadows the builtin inside the class: keep these last
    async def search_many(
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
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> builtins.list[SearchResult]:
        return await asyncio.to_thread(
            self._sync.search_many, list(queries), k=k, route=route, max_hops=max_hops, channels=channels,
            router=router, as_of=as_of, now=now, session=session, user=user, agent=agent, speaker=speaker, kind=kind, since=since, until=until, metadata=metadata,
        )  # fmt: skip

    async def list(
        self,
        *,
        cursor: str | None = None,
        limit: int = 100,
        include_history: bool = False,
        session: OneOrMany = None,
        user: OneOrMany = None,
        agent: OneOrMany = None,
        speaker: OneOrMany = None,
        kind: OneOrMany = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> MemoryPage:
        return await asyncio.to_thread(
            self._sync.list, cursor=cursor, limit=limit, include_history=include_history, session=session, user=user, agent=agent, speaker=speaker, kind=kind, since=since, until=until, metadata=metadata,
        )  # fmt: skip


class AsyncMemory:
    """Async twin of :class:`~falkmem.memory.Memory`. Use ``async with AsyncMemory(...)``."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        url: str | None = None,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | Literal["rules", "none"] = "rules",
        reranker: Reranker | str | None = None,
        token_counter: TokenCounter | str | None = None,
        **overrides: Any,
    ) -> None:
        self._sync = Memory(
            path, url=url, settings=settings, embedder=embedder, extractor=extractor,
            reranker=reranker, token_counter=token_counter, **overrides,
        )  # fmt: skip

    @property
    def settings(self) -> Settings:
        return self._sync.settings

    @property
    def location(self) -> str:
        return self._sync.location

    def tenant(self, tenant_id: str) -> AsyncTenant:
        return AsyncTenant(self._sync.tenant(tenant_id))

    async def create_tenant(self, tenant_id: str) -> AsyncTenant:
        return AsyncTenant(await asyncio.to_thread(self._sync.create_tenant, tenant_id))

    async def tenants(self) -> list[str]:
        return await asyncio.to_thread(self._sync.tenants)

    async def has_tenant(self, tenant_id: str) -> bool:
        return await asyncio.to_thread(self._sync.has_tenant, tenant_id)

    async def drop_tenant(self, tenant_id: str) -> bool:
        return await asyncio.to_thread(self._sync.drop_tenant, tenant_id)

    async def close(self) -> None:
        await asyncio.to_thread(self._sync.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
