"""TTL on the LangGraph store (issue 50): ``put(ttl=)`` in minutes, ``TTLConfig``, refresh on read,
expired items gone for readers at once, and the sweeper deleting them (with real time: TTLs of
about a second)."""

from __future__ import annotations

import asyncio
import time

import pytest
from langgraph.store.base import PutOp

from falkmem import ConfigError, InputError, Memory, Tenant
from falkmem.integrations.langgraph import AsyncFalkmemStore, FalkmemStore

SECOND = 1 / 60  # minutes


def _expire_now(store: FalkmemStore, ns: tuple[str, ...], key: str) -> None:
    """The item's expiry a minute ago, the item left in place (as if no sweep had run yet)."""
    ids = [h.id for h in store._versions([(ns, key)])[(ns, key)]]
    store._run("langgraph/set_expiry", {"rows": [{"id": i, "at": time.time() - 60} for i in ids]})


def test_an_expired_item_is_gone_for_get_search_and_list_at_once(store: FalkmemStore) -> None:
    store.put(("t", "gone"), "k", {"text": "the parcel arrives on Monday"}, ttl=1.0)
    store.put(("t", "kept"), "k", {"text": "the parcel arrives on Tuesday"})
    _expire_now(store, ("t", "gone"), "k")
    assert store.get(("t", "gone"), "k") is None
    assert store.search(("t", "gone")) == []
    assert [i.namespace for i in store.search(("t",), query="when does the parcel arrive?")] == [
        ("t", "kept")
    ]
    assert store.list_namespaces() == [("t", "kept")]
    assert store.tenant.count() == 2  # still stored: the sweep deletes it
    assert store.sweep_ttl() == 1 and store.tenant.count() == 1
    assert store.sweep_ttl() == 0


def test_ttl_counts_in_minutes_and_reads_refresh_it(store: FalkmemStore) -> None:
    store.put(("t",), "read", {"v": 1}, ttl=1.5 * SECOND)
    store.put(("t",), "unread", {"v": 2}, ttl=1.5 * SECOND)
    store.put(("t",), "searched", {"v": 3}, ttl=1.5 * SECOND)
    store.put(("t",), "forever", {"v": 4})
    time.sleep(0.9)
    assert store.get(("t",), "read") is not None  # refresh_ttl defaults to True
    assert [i.key for i in store.search(("t",), filter={"v": 3})] == ["searched"]
    assert store.get(("t",), "unread", refresh_ttl=False) is not None
    time.sleep(0.9)  # 1.8 s after the put, 0.9 s after the reads
    assert store.get(("t",), "unread", refresh_ttl=False) is None
    assert {i.key for i in store.search(("t",), refresh_ttl=False)} == {"read", "searched", "forever"}
    time.sleep(0.9)
    assert {i.key for i in store.search(("t",))} == {"forever"}
    assert store.sweep_ttl() == 3


def test_a_read_never_brings_an_expired_item_back(store: FalkmemStore) -> None:
    store.put(("t",), "k", {"v": 1}, ttl=1.0)
    first = store.get(("t",), "k")
    assert first is not None
    _expire_now(store, ("t",), "k")
    before = store._expiries(store._versions([(("t",), "k")])[(("t",), "k")])
    assert store.get(("t",), "k", refresh_ttl=True) is None and store.search(("t",), refresh_ttl=True) == []
    assert store._expiries(store._versions([(("t",), "k")])[(("t",), "k")]) == before
    store.put(("t",), "k", {"v": 2}, ttl=1.0)  # a put after expiry is a new item
    got = store.get(("t",), "k")
    assert got is not None and got.value == {"v": 2} and got.created_at > first.created_at


def test_ttl_config_default_override_and_omit_expired(mem: Memory, tenant: Tenant) -> None:
    store = FalkmemStore(mem, tenant=tenant.id, ttl={"default_ttl": 1.0, "omit_expired": False})
    store.put(("t",), "default", {"v": 1})
    store.put(("t",), "none", {"v": 2}, ttl=None)  # an explicit None: never expires
    store.batch([PutOp(("t",), "raw", {"v": 3})])  # a raw op carries its own ttl (None)
    meta = {k: h.metadata.get("lg:ttl") for (_, k), [h, *_] in store._versions(
        [(("t",), "default"), (("t",), "none"), (("t",), "raw")]).items()}  # fmt: skip
    assert meta == {"default": 1.0, "none": None, "raw": None}
    _expire_now(store, ("t",), "default")
    assert store.get(("t",), "default", refresh_ttl=False) is not None  # omit_expired=False: until swept
    assert ("t",) in store.list_namespaces()
    assert store.sweep_ttl() == 1 and store.get(("t",), "default") is None


def test_the_sweeper_thread_deletes_expired_items_and_spares_refreshed_ones(
    mem: Memory, tenant: Tenant
) -> None:
    store = FalkmemStore(
        mem, tenant=tenant.id, ttl={"default_ttl": 2 * SECOND, "sweep_interval_minutes": 0.5 * SECOND}
    )
    store.put(("t",), "idle", {"v": 1})
    store.put(("t",), "busy", {"v": 2})
    store.start_ttl_sweeper()
    try:
        deadline = time.time() + 30
        while store.tenant.count() > 1 and time.time() < deadline:
            assert store.get(("t",), "busy") is not None  # each read moves its expiry on
            time.sleep(0.3)
        assert store.tenant.count() == 1  # the idle one was deleted, not merely hidden
        assert store.get(("t",), "busy") is not None
    finally:
        assert store.stop_ttl_sweeper(timeout=10)
    assert store.stop_ttl_sweeper()  # stopping twice is fine
    assert FalkmemStore(mem, tenant=tenant.id).start_ttl_sweeper().done()  # no TTL config: nothing runs


@pytest.mark.parametrize("ttl", [0, -1, float("nan"), float("inf"), True, "5"])
def test_a_bad_ttl_is_an_error_naming_it(store: FalkmemStore, ttl: object) -> None:
    with pytest.raises(InputError) as err:
        store.put(("t",), "k", {"v": 1}, ttl=ttl)  # type: ignore[arg-type]
    assert err.value.field == "ttl"
    assert store.get(("t",), "k") is None


@pytest.mark.parametrize(
    ("ttl", "key"),
    [
        ({"default_ttl": -1}, "ttl.default_ttl"),
        ({"sweep_interval_minutes": 0}, "ttl.sweep_interval_minutes"),
        ({"refresh_on_read": "yes"}, "ttl.refresh_on_read"),
        ({"max_age": 5}, "ttl.max_age"),
    ],
)
def test_a_bad_ttl_config_is_an_error_naming_the_key(
    mem: Memory, tenant: Tenant, ttl: object, key: str
) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        FalkmemStore(mem, tenant=tenant.id, ttl=ttl)  # type: ignore[arg-type]


def test_async_store_sweeps_in_a_task_and_refuses_blocking_calls_on_the_loop(
    mem: Memory, tenant: Tenant
) -> None:
    async def go() -> None:
        store = AsyncFalkmemStore(
            mem, tenant=tenant.id, ttl={"default_ttl": 1 * SECOND, "sweep_interval_minutes": 0.5 * SECOND}
        )
        with pytest.raises(asyncio.InvalidStateError):
            store.put(("t",), "k", {"v": 1})  # a sync call would block the loop
        await store.aput(("t",), "k", {"v": 1})
        await asyncio.to_thread(store.put, ("t",), "j", {"v": 2})  # from another thread it runs
        task = await store.start_ttl_sweeper()
        assert await store.start_ttl_sweeper() is task
        for _ in range(100):
            if store.tenant.count() == 0:
                break
            await asyncio.sleep(0.2)
        assert store.tenant.count() == 0 and await store.aget(("t",), "k") is None
        assert await store.stop_ttl_sweeper(timeout=10) and task.done()
        await store.aput(("t",), "k", {"v": 1}, ttl=1.0)
        assert await store.sweep_ttl() == 0

    asyncio.run(go())
