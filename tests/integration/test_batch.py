"""Batch and housekeeping calls on a real FalkorDB: get_many, delete_many, forget by filters,
paging with a cursor, search_many with one embedding call; sync and async."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from falkmem import AsyncTenant, InputError, LimitExceeded, Memory, Tenant, TenantNotFound


@pytest.fixture
def filled(tenant: Tenant) -> Tenant:
    tenant.add_many(
        [
            {"id": f"m{i:02d}", "text": f"Memory {i} about {'apples' if i % 2 else 'trains'} in town {i % 3}.",
             "session": f"s{i % 3}", "user": "dana" if i < 6 else "omar", "kind": "fact" if i % 4 == 0 else "note",
             "metadata": {"batch": i // 5, "tag": "x"}}
            for i in range(12)
        ],
        batch_size=5,  # created_at differs per batch call only when calls differ: ids break ties
    )  # fmt: skip
    return tenant


def test_get_many_keeps_order_skips_unknown(filled: Tenant) -> None:
    got = filled.get_many(["m03", "nope", "m01", "m03"])
    assert [h.id for h in got] == ["m03", "m01"]
    assert got[0].metadata == {"batch": 0, "tag": "x"}
    assert filled.get_many([]) == []
    with pytest.raises(InputError) as err:
        filled.get_many("m01")
    assert err.value.field == "ids"
    with pytest.raises(InputError) as err:
        filled.get_many(["m01", ""])
    assert err.value.field == "ids[1]"


def test_delete_many_erases_with_cleanup(filled: Tenant) -> None:
    r = filled.delete_many(["m00", "m01", "missing"])
    assert r.artifacts == 2 and set(r.ids) == {"m00", "m01"}
    assert filled.count() == 10
    assert filled.get_many(["m00", "m01", "m02"])[0].id == "m02"
    assert filled.delete_many(["m00"]).artifacts == 0


def test_forget_with_filters(filled: Tenant) -> None:
    before = {h.id for h in filled.list(limit=100)}
    r = filled.forget(user="omar", kind="fact")  # m08 only (m06..m11 omar; facts: 0, 4, 8)
    assert set(r.ids) == {"m08"}
    r = filled.forget(metadata={"batch": 0}, session=["s1", "s2"])  # m01 m02 m04 (batch 0 = m00..m04)
    assert set(r.ids) == {"m01", "m02", "m04"}
    left = {h.id for h in filled.list(limit=100)}
    assert left == before - {"m08", "m01", "m02", "m04"}
    with pytest.raises(InputError) as err:
        filled.forget("m03", kind="note")
    assert err.value.field == "forget"
    with pytest.raises(InputError) as err:
        filled.forget(kind="nonsense")
    assert err.value.field == "kind"
    assert filled.count() == len(left)  # the refused calls wrote nothing


def test_list_pages_through_everything_once(filled: Tenant) -> None:
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = filled.list(limit=5, cursor=cursor)
        seen.extend(h.id for h in page)
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
    assert pages == 3 and sorted(seen) == [f"m{i:02d}" for i in range(12)] and len(set(seen)) == 12
    only = filled.list(session="s1", kind="note", limit=100)
    assert {h.id for h in only} == {"m01", "m07", "m10"} and only.next_cursor is None
    with pytest.raises(InputError) as err:
        filled.list(cursor="not-a-cursor")
    assert err.value.field == "cursor"
    with pytest.raises(LimitExceeded):
        filled.list(limit=0)


def test_list_of_a_missing_tenant_is_tenant_not_found(mem: Memory) -> None:
    with pytest.raises(TenantNotFound):
        mem.tenant("t-no-such-tenant-xyz").list()


class _Counting:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[int] = []

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def dimension(self) -> int:
        return int(self.inner.dimension)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return list(self.inner.embed(texts))


def test_search_many_equals_search_with_one_embedding_call(
    filled: Tenant, mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = ["apples in town 1", "trains", "Memory 7", "what about town 2?"]
    single = [filled.search(q, k=4, user="dana") for q in queries]
    counting = _Counting(mem._engine.embedder)
    monkeypatch.setattr(mem._engine, "embedder", counting)
    many = filled.search_many(queries, k=4, user="dana")
    assert counting.calls == [len(queries)]
    assert [r.ids for r in many] == [r.ids for r in single]
    assert all(h.user == "dana" for r in many for h in r)
    assert "embed" not in many[0].timings_ms
    with pytest.raises(InputError) as err:
        filled.search_many(["ok", "  "])
    assert err.value.field == "queries[1]"
    with pytest.raises(InputError):
        filled.search_many("one string")
    assert filled.search_many([]) == []


def test_async_batch_calls(filled: Tenant) -> None:
    at = AsyncTenant(filled)

    async def go() -> tuple[Any, ...]:
        got = await at.get_many(["m02", "m05"])
        page = await at.list(limit=3, user="omar")
        many = await at.search_many(["apples", "trains"], k=2)
        gone = await at.delete_many(["m02"])
        forgot = await at.forget(session="s0", kind="fact")
        return got, page, many, gone, forgot

    got, page, many, gone, forgot = asyncio.run(go())
    assert [h.id for h in got] == ["m02", "m05"]
    assert len(page) == 3 and all(h.user == "omar" for h in page) and page.next_cursor
    assert [len(r) for r in many] == [2, 2]
    assert gone.artifacts == 1 and set(forgot.ids) == {"m00"}


def test_maintain_backfills_metadata_pairs_of_older_memories(filled: Tenant, mem: Memory) -> None:
    from tests.helpers import test_query

    mem.admin.executor.run(filled.graph, test_query("drop_meta_kv"))  # as written before filters existed
    assert filled.search("apples", k=5, metadata={"batch": 1}).ids == []
    filled.maintain()
    got = filled.search("apples", k=5, metadata={"batch": 1})
    assert got.ids and all(h.metadata["batch"] == 1 for h in got)
    assert len(filled.list(metadata={"tag": "x"}, limit=100)) == 12
