"""The store builders LangGraph's own store tests run against, adapted to ``FalkmemStore``.

Every copied test module (``upstream/``) imports its store class from here instead of
``InMemoryStore``, ``PostgresStore``, ``SqliteStore`` and their async twins. Each store built is a
``FalkmemStore`` on a fresh tenant of the session's ``Memory`` (real embedded FalkorDB, falkmem's
default MiniLM for stores without an ``index``), dropped after the test. ``LG_SUITE_RANKING`` picks the
ranking of ``search(query=...)``: ``vector`` (LangGraph's, the default here) or ``routed``.

The helpers at the bottom replace the tests' SQL peeks at the Postgres ``store`` table
(``expires_at``, row existence, a backdated ``updated_at``) with the same facts read from FalkorDB.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from falkmem import Memory
from falkmem.integrations.langgraph import AsyncFalkmemStore, FalkmemStore
from falkmem.integrations.langgraph.store import Ranking
from tests.helpers import test_query

MEMORY: Memory | None = None
"""The session's Memory (set by conftest.py)."""

CREATED: list[str] = []
"""Tenants built during the current test (dropped by conftest.py after it)."""


def _ranking() -> Ranking:
    r = os.environ.get("LG_SUITE_RANKING", "vector")
    if r not in ("vector", "routed"):
        raise ValueError(f"LG_SUITE_RANKING: 'vector' or 'routed', not {r!r}")
    return r  # type: ignore[return-value]


def _index(index: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """LangGraph's IndexConfig from a Postgres or SQLite one: ``text_fields`` (SQLite's name) is
    ``fields``; pgvector's ``ann_index_config`` has no FalkorDB meaning and is dropped;
    ``distance_type`` stays (FalkmemStore refuses anything but cosine)."""
    if index is None:
        return None
    out = {k: v for k, v in index.items() if k not in ("ann_index_config", "text_fields")}
    if "text_fields" in index and "fields" not in index:
        out["fields"] = index["text_fields"]
    return out


def _tenant() -> str:
    t = f"lgs-{uuid.uuid4().hex[:16]}"
    CREATED.append(t)
    return t


def _memory() -> Memory:
    if MEMORY is None:
        raise RuntimeError("the suite's Memory is not open (run through benchmarks/langgraph_suite)")
    return MEMORY


class SuiteStore(FalkmemStore):
    """``FalkmemStore`` on a fresh tenant, built the way the copied tests build their stores."""

    def __init__(self, *, index: Mapping[str, Any] | None = None, ttl: Any = None, **_: Any) -> None:
        super().__init__(_memory(), tenant=_tenant(), index=_index(index), ttl=ttl, ranking=_ranking())
        if index is not None:
            self.index_config = dict(index)  # what the test configured (SQLite's text_fields too)

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str = "", *, index: Mapping[str, Any] | None = None, ttl: Any = None, **_: Any
    ) -> Iterator[SuiteStore]:
        store = cls(index=index, ttl=ttl)
        try:
            yield store
        finally:
            store.stop_ttl_sweeper(timeout=5)

    def setup(self) -> None:
        """Nothing to migrate: the tenant is created (and migrated) by its first write."""


class AsyncSuiteStore(AsyncFalkmemStore):
    """``AsyncFalkmemStore`` on a fresh tenant, built the way the copied async tests build theirs."""

    def __init__(self, *, index: Mapping[str, Any] | None = None, ttl: Any = None, **_: Any) -> None:
        super().__init__(_memory(), tenant=_tenant(), index=_index(index), ttl=ttl, ranking=_ranking())
        if index is not None:
            self.index_config = dict(index)  # what the test configured (SQLite's text_fields too)

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str = "", *, index: Mapping[str, Any] | None = None, ttl: Any = None, **_: Any
    ) -> AsyncIterator[AsyncSuiteStore]:
        store = cls(index=index, ttl=ttl)
        try:
            yield store
        finally:
            await store.stop_ttl_sweeper(timeout=5)

    async def setup(self) -> None:
        """Nothing to migrate: the tenant is created (and migrated) by its first write."""


def _run(store: FalkmemStore | AsyncFalkmemStore, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    return _memory().admin.executor.run(store.tenant.graph, test_query(name), params)


def expire_now(store: FalkmemStore | AsyncFalkmemStore, ns: tuple[str, ...], key: str) -> None:
    """The item's expiry a minute in the past, the item left in place (unswept)."""
    versions = store._versions([(ns, key)]).get((ns, key), [])
    rows = [{"id": h.id, "at": time.time() - 60} for h in versions]
    store._run("langgraph/set_expiry", {"rows": rows})


def row_exists(store: FalkmemStore | AsyncFalkmemStore, ns: tuple[str, ...], key: str) -> bool:
    """Whether the item is still stored (expired or not)."""
    return bool(store._versions([(ns, key)]).get((ns, key)))


def stored_expires_at(store: FalkmemStore | AsyncFalkmemStore, ns: tuple[str, ...], key: str) -> float | None:
    """When the item expires (epoch seconds), as stored."""
    versions = store._versions([(ns, key)]).get((ns, key), [])
    return store._expiries(versions).get(versions[0].id) if versions else None


def backdate(store: FalkmemStore | AsyncFalkmemStore, ns: tuple[str, ...], key: str, seconds: float) -> None:
    """Move the item's updated_at ``seconds`` into the past (LangGraph's tests backdate rows)."""
    ids = [h.id for h in store._versions([(ns, key)]).get((ns, key), [])]
    _run(store, "backdate_items", {"ids": ids, "seconds": seconds})


def postgres_internal(*args: Any, **kwargs: Any) -> Any:
    """Stands in for a private helper of LangGraph's Postgres or SQLite store (SQL pattern and
    escaping functions): the tests of those check SQL text, which FalkmemStore does not write."""
    raise NotImplementedError("a private helper of LangGraph's SQL stores; FalkmemStore has no SQL")


class _PostgresAInternal:
    """Stands in for ``langgraph.checkpoint.postgres._ainternal`` (its connection pool checkout)."""

    def __getattr__(self, name: str) -> Any:
        raise NotImplementedError("langgraph-checkpoint-postgres internals; FalkmemStore has no pool")


postgres_ainternal = _PostgresAInternal()
