"""The public surface: a sorted, explicit __all__, and sync/async parity."""

from __future__ import annotations

import asyncio
import inspect
from types import SimpleNamespace
from typing import Any

import pytest

import falkmem
from falkmem import AsyncMemory, AsyncTenant, InputError, Memory, Settings, Tenant
from falkmem.retrieval.filters import FILTER_NAMES, build_filters

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


# --- the filter keywords: stated once (FilterArgs), checked by name and value -------------------

FILTERED = ["search", "search_many", "explain", "context", "list", "forget"]


def _offline() -> Tenant:
    """A tenant whose engine has settings only: every check below fails before any I/O."""
    return Tenant("t", SimpleNamespace(settings=Settings.load()))  # type: ignore[arg-type]


def _call(name: str) -> tuple[Any, ...]:
    return {"search": ("q",), "search_many": (["q"],), "explain": ("q",), "context": ("q",)}.get(name, ())


def test_the_filter_taking_methods_take_the_filter_keywords() -> None:
    assert FILTER_NAMES == ("session", "user", "agent", "speaker", "kind", "since", "until", "metadata")
    for name in FILTERED:
        params = inspect.signature(getattr(Tenant, name)).parameters
        assert str(params["filters"]) == "**filters: 'Unpack[FilterArgs]'", name


def test_a_misspelled_filter_is_an_error_that_names_it() -> None:
    t, at = _offline(), AsyncTenant(_offline())
    for name in FILTERED:
        with pytest.raises(TypeError, match="'sesion'"):
            getattr(t, name)(*_call(name), sesion="s1")
        with pytest.raises(TypeError, match="'sesion'"):
            asyncio.run(getattr(at, name)(*_call(name), sesion="s1"))
    with pytest.raises(TypeError, match="'sesion'"):
        t.forget(sesion=None, user="u")  # the one-user shortcut checks the names too
    with pytest.raises(TypeError, match="'usr'"):
        build_filters(usr="u")  # type: ignore[call-arg]


def test_a_bad_filter_value_is_named_by_every_filter_taking_method() -> None:
    t = _offline()
    for name in FILTERED:
        with pytest.raises(InputError) as err:
            getattr(t, name)(*_call(name), kind="bogus", session="s1")
        assert err.value.field == "kind", name
        with pytest.raises(InputError) as err:
            getattr(t, name)(*_call(name), since="2026-02-01", until="2026-01-01")
        assert err.value.field == "until", name


def test_async_calls_hand_their_arguments_over_unchanged() -> None:
    at = AsyncTenant(_offline())
    with pytest.raises(InputError) as err:
        asyncio.run(at.search_many("one string"))  # not split into characters on the way
    assert err.value.field == "queries"
    with pytest.raises(InputError) as err:
        asyncio.run(at.search("q", k=3, metadata={}))
    assert err.value.field == "metadata"
