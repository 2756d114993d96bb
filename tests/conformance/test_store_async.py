"""The async half of ``BaseStore`` on ``FalkmemStore`` (issue 50): every ``a`` method, ``abatch``
keeping the order of its ops, and concurrent calls."""

from __future__ import annotations

import asyncio

from langgraph.store.base import GetOp, Item, ListNamespacesOp, PutOp, SearchOp

from falkmem.integrations.langgraph import FalkmemStore


def test_async_methods_and_abatch_order(store: FalkmemStore) -> None:
    async def go() -> None:
        await store.aput(("users", "dana"), "trip", {"text": "Dana flies to Lisbon on May 3.", "n": 1})
        await store.aput(("users", "omar"), "trip", {"text": "Omar takes the train to Porto.", "n": 2})
        got = await store.aget(("users", "dana"), "trip")
        assert got is not None and got.value["n"] == 1
        found = await store.asearch(("users",), query="Who flies to Lisbon?", limit=1)
        assert [(i.namespace, i.key) for i in found] == [(("users", "dana"), "trip")]
        assert await store.asearch(("users",), filter={"n": {"$gt": 1}}) != []
        assert await store.alist_namespaces(prefix=("users",)) == [("users", "dana"), ("users", "omar")]
        out = await store.abatch(
            [
                ListNamespacesOp(),
                GetOp(("users", "omar"), "trip"),
                SearchOp(("users",), filter={"n": 1}),
                PutOp(("users", "lee"), "trip", {"n": 3}),
                GetOp(("users", "lee"), "trip"),
            ]
        )
        assert out[0] == [("users", "dana"), ("users", "omar")] and isinstance(out[1], Item)
        assert [i.key for i in out[2]] == ["trip"] and out[3] is None and out[4] is None  # type: ignore[union-attr]
        await store.adelete(("users", "dana"), "trip")
        assert await store.aget(("users", "dana"), "trip") is None
        # concurrent calls: each gets its own answer
        keys = [f"k{i}" for i in range(8)]
        await asyncio.gather(*(store.aput(("many",), k, {"k": k}) for k in keys))
        items = await asyncio.gather(*(store.aget(("many",), k) for k in keys))
        assert [i.value["k"] for i in items if i is not None] == keys

    asyncio.run(go())
