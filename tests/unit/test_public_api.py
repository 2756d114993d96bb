"""The public surface: a sorted, explicit __all__, and sync/async parity."""

from __future__ import annotations

import inspect

import falkmem
from falkmem import AsyncMemory, AsyncTenant, Memory, Tenant

EXPECTED = [
    "AddResult", "AsyncMemory", "AsyncTenant", "ConfigError", "ConnectionFailed", "CypherFileError",
    "DimensionMismatch", "EmbeddingError", "ExtractionError", "FalkmemError", "Hit", "InputError",
    "InvalidTenantId", "LimitExceeded", "Memory", "NotFound", "QueryFailed", "QueryTimeout", "Record",
    "RerankError", "SearchResult", "Settings", "StorageError", "StoreLocked", "Tenant", "TenantError",
    "TenantExists", "TenantNotFound", "__version__",
]  # fmt: skip


def test_all_is_sorted_and_complete() -> None:
    assert falkmem.__all__ == sorted(falkmem.__all__)
    assert set(EXPECTED) <= set(falkmem.__all__)
    for name in falkmem.__all__:
        assert hasattr(falkmem, name), name


def test_every_error_derives_from_falkmem_error() -> None:
    from falkmem import errors

    for name, obj in vars(errors).items():
        if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__:
            assert issubclass(obj, falkmem.FalkmemError), name


def _public(cls: type) -> dict[str, inspect.Signature]:
    out = {}
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") or not callable(member):
            continue
        out[name] = inspect.signature(member)
    return out


def _params(sig: inspect.Signature) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values() if p.name != "self"]


def _twin_of(sync_cls: type, name: str, async_cls: type) -> None:
    """An async method derived from the sync one runs that very method (not another's)."""
    wrapped = getattr(getattr(async_cls, name), "__wrapped__", None)
    assert wrapped is None or wrapped is getattr(sync_cls, name), name


def test_tenant_and_async_tenant_have_the_same_methods_and_signatures() -> None:
    sync, asyn = _public(Tenant), _public(AsyncTenant)
    assert set(sync) == set(asyn)
    for name in sync:
        assert _params(sync[name]) == _params(asyn[name]), name
        assert inspect.iscoroutinefunction(getattr(AsyncTenant, name)), name
        _twin_of(Tenant, name, AsyncTenant)
        assert getattr(AsyncTenant, name).__doc__ == getattr(Tenant, name).__doc__, name


def test_memory_and_async_memory_have_the_same_methods() -> None:
    sync, asyn = _public(Memory), _public(AsyncMemory)
    assert set(sync) == set(asyn)
    for name in sync:
        assert _params(sync[name]) == _params(asyn[name]), name
        _twin_of(Memory, name, AsyncMemory)
    assert inspect.iscoroutinefunction(AsyncMemory.create_tenant) and not inspect.iscoroutinefunction(
        AsyncMemory.tenant
    )
    assert _params(inspect.signature(Memory.__init__)) == _params(inspect.signature(AsyncMemory.__init__))
    assert _params(inspect.signature(Memory)) == _params(inspect.signature(AsyncMemory))
