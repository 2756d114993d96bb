"""``AsyncMemory`` / ``AsyncTenant``: the same surface as ``Memory`` / ``Tenant`` for asyncio code.

Each call runs the sync implementation in a worker thread (``asyncio.to_thread``). The work is
dominated by CPU-bound embedding and short server round trips, so a second async implementation
would buy little and drift. Each async method is derived from its sync twin by
:func:`_in_thread` (signature, docstring and types are the sync ones); the parity test in
``tests/unit/test_public_api.py`` checks that every sync method has its twin.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Concatenate

from .memory import Memory
from .settings import Settings
from .tenant import Tenant


def _in_thread[**P, R](
    method: Callable[Concatenate[Any, P], R],
) -> Callable[Concatenate[Any, P], Coroutine[Any, Any, R]]:
    """A sync method as a coroutine method of its async twin, which holds the sync object in
    ``_sync``: the call runs there in a worker thread. Docstring and signature (what ``help()``,
    ``inspect.signature`` and type checkers show) are the sync method's."""

    @functools.wraps(method)
    async def threaded(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self._sync, *args, **kwargs)

    threaded.__module__, threaded.__qualname__ = __name__, f"Async{method.__qualname__}"
    return threaded


def _init_of[**P](
    cls: Callable[P, Any],
) -> Callable[[Callable[..., None]], Callable[Concatenate[Any, P], None]]:
    """Give an async twin's ``__init__`` the parameters of the sync class's (for type checkers,
    ``help()`` and ``inspect.signature``)."""

    def typed(init: Callable[..., None]) -> Callable[Concatenate[Any, P], None]:
        functools.update_wrapper(init, cls.__init__, assigned=())  # __wrapped__: the signature
        return init

    return typed


@dataclass(frozen=True, slots=True)
class AsyncTenant:
    """Async twin of :class:`~falkmem.tenant.Tenant`."""

    _sync: Tenant

    @property
    def id(self) -> str:
        """The tenant id."""
        return self._sync.id

    @property
    def graph(self) -> str:
        """The FalkorDB graph key holding this tenant."""
        return self._sync.graph

    add = _in_thread(Tenant.add)
    add_many = _in_thread(Tenant.add_many)
    delete = _in_thread(Tenant.delete)
    forget = _in_thread(Tenant.forget)
    delete_many = _in_thread(Tenant.delete_many)
    history = _in_thread(Tenant.history)
    maintain = _in_thread(Tenant.maintain)
    consolidate = _in_thread(Tenant.consolidate)
    health = _in_thread(Tenant.health)
    reconcile = _in_thread(Tenant.reconcile)
    get = _in_thread(Tenant.get)
    get_many = _in_thread(Tenant.get_many)
    count = _in_thread(Tenant.count)
    search = _in_thread(Tenant.search)
    explain = _in_thread(Tenant.explain)
    context = _in_thread(Tenant.context)
    search_many = _in_thread(Tenant.search_many)
    list = _in_thread(Tenant.list)  # shadows the builtin inside the class: keep it last


class AsyncMemory:
    """Async twin of :class:`~falkmem.memory.Memory`. Use ``async with AsyncMemory(...)``."""

    _sync: Memory

    @_init_of(Memory)
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sync = Memory(*args, **kwargs)

    @property
    def settings(self) -> Settings:
        """The settings in effect."""
        return self._sync.settings

    @property
    def location(self) -> str:
        """The store's data directory or (password-redacted) URL."""
        return self._sync.location

    def tenant(self, tenant_id: str) -> AsyncTenant:
        """The async handle of one tenant (``Memory.tenant``). Nothing is created until the first write."""
        return AsyncTenant(self._sync.tenant(tenant_id))

    async def create_tenant(self, tenant_id: str) -> AsyncTenant:
        """Create a tenant now and return its async handle (``Memory.create_tenant``)."""
        return AsyncTenant(await asyncio.to_thread(self._sync.create_tenant, tenant_id))

    tenants = _in_thread(Memory.tenants)
    has_tenant = _in_thread(Memory.has_tenant)
    drop_tenant = _in_thread(Memory.drop_tenant)
    close = _in_thread(Memory.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
