"""The admin layer's way into an open ``Memory``: ``mem.admin`` (the store, its executor, the
embedder, the settings), so ``falkmem/admin`` and ``falkmem/cli`` never reach into the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..embedding.base import Embedder
    from ..engine import Engine
    from ..settings import Settings
    from ..storage.executor import Executor
    from ..storage.store import Store

__all__ = ["AdminView"]


class AdminView:
    """What tenant administration uses of an open ``Memory``; returned by ``Memory.admin``.

    Not for agents: the store works below the tenant handle (no input validation, no
    known-entity bookkeeping). After writing or dropping a tenant's graph through it, call
    :meth:`forget_tenant` so the process's caches of that tenant are rebuilt.
    """

    __slots__ = ("_engine",)

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    @property
    def store(self) -> Store:
        """The connection and tenant graph lifecycle (exists, meta, ensure, migrations, drop)."""
        return self._engine.store

    @property
    def executor(self) -> Executor:
        """Runs named queries and server commands with timeouts, retries and error translation."""
        return self._engine.store.executor

    @property
    def embedder(self) -> Embedder:
        """The embedder the Memory writes and searches with."""
        return self._engine.embedder

    @property
    def settings(self) -> Settings:
        """The Memory's settings."""
        return self._engine.settings

    def graph(self, tenant_id: str) -> str:
        """The graph key of a tenant (no validation: validate the id first)."""
        return self._engine.store.graph(tenant_id)

    def forget_tenant(self, tenant_id: str) -> None:
        """Drop this process's caches of a tenant (its known entities, its metadata)."""
        self._engine.forget_tenant(tenant_id)
