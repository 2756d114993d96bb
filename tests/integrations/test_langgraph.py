"""``FalkmemStore``: LangGraph's BaseStore on a real falkmem tenant (real FalkorDB, real MiniLM).

LangGraph ships no store conformance suite in its wheel; the behaviours its own store tests
check (libs/checkpoint/tests/test_store.py: namespaces, list_namespaces with prefix, suffix,
wildcards, depth and paging, filters, search, batch semantics) are ported here, plus a real
compiled graph whose nodes write and read through the injected store."""

from __future__ import annotations

import asyncio
import time
from typing import Any, TypedDict

import pytest

pytest.importorskip("langgraph")

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp

from falkmem import InputError, Memory, Tenant
from falkmem.integrations.langgraph import FalkmemStore, item_id


@pytest.fixture
def store(mem: Memory, tenant: Tenant) -> FalkmemStore:
    return FalkmemStore(mem, tenant=tenant.id)


def test_put_get_update_delete_round_trip(store: FalkmemStore) -> None:
    value = {"text": "Dana prefers aisle seats.", "n": 3, "x": 2.5, "ok": True, "none": None,
             "tags": ["travel", "seats"], "nested": {"a": {"b": [1, {"c": "ü"}]}}}  # fmt: skip
    assert store.get(("users", "dana"), "prefs") is None
    store.put(("users", "dana"), "prefs", value)
    got = store.get(("users", "dana"), "prefs")
    assert got is not None and got.value == value
    assert (got.namespace, got.key) == (("users", "dana"), "prefs")
    time.sleep(0.01)
    store.put(("users", "dana"), "prefs", {"text": "Dana now prefers window seats."})
    again = store.get(("users", "dana"), "prefs")
    assert again is not None and again.value == {"text": "Dana now prefers window seats."}
    assert again.created_at == got.created_at and again.updated_at > got.updated_at
    assert store.tenant.count() == 1  # an upsert, not a second memory
    store.delete(("users", "dana"), "prefs")
    assert store.get(("users", "dana"), "prefs") is None
    assert store.tenant.count() == 0


def test_namespaces_never_see_each_other(store: FalkmemStore) -> None:
    store.put(("users", "dana"), "k", {"text": "Dana's flight is UA 837."})
    store.put(("users", "omar"), "k", {"text": "Omar's flight is LH 400."})
    store.put(("users", "dana", "notes"), "k", {"text": "Dana's note about UA 837."})
    dana = store.get(("users", "dana"), "k")
    omar = store.get(("users", "omar"), "k")
    assert dana is not None and omar is not None and dana.value != omar.value
    assert {i.value["text"] for i in store.search(("users", "omar"))} == {"Omar's flight is LH 400."}
    hits = store.search(("users", "omar"), query="UA 837 flight")
    assert [i.key for i in hits] == ["k"] and hits[0].namespace == ("users", "omar")
    assert {i.namespace for i in store.search(("users", "dana"))} == {
        ("users", "dana"),
        ("users", "dana", "notes"),
    }
    assert len(store.search(("users",), limit=10)) == 3
    sessions = {h.session for h in store.tenant.list()}
    assert sessions == {'["users","dana"]', '["users","omar"]', '["users","dana","notes"]'}


def test_search_filters_limit_offset(store: FalkmemStore) -> None:
    for i in range(6):
        store.put(
            ("docs",), f"d{i}", {"kind": "report" if i % 2 else "memo", "score": i, "meta": {"lang": "en"}}
        )
    assert sorted(i.key for i in store.search(("docs",), filter={"kind": "report"})) == ["d1", "d3", "d5"]
    assert sorted(i.key for i in store.search(("docs",), filter={"kind": {"$eq": "memo"}})) == [
        "d0",
        "d2",
        "d4",
    ]
    assert sorted(i.key for i in store.search(("docs",), filter={"score": {"$gt": 3}})) == ["d4", "d5"]
    assert sorted(i.key for i in store.search(("docs",), filter={"score": {"$gte": 1, "$lt": 3}})) == [
        "d1",
        "d2",
    ]
    assert sorted(i.key for i in store.search(("docs",), filter={"kind": {"$ne": "memo"}})) == [
        "d1",
        "d3",
        "d5",
    ]
    assert len(store.search(("docs",), filter={"meta": {"lang": "en"}})) == 6
    page1 = store.search(("docs",), limit=4)
    page2 = store.search(("docs",), limit=4, offset=4)
    assert len(page1) == 4 and len(page2) == 2
    assert {i.key for i in page1} | {i.key for i in page2} == {f"d{i}" for i in range(6)}


def test_search_query_uses_falkmem_retrieval_and_index_option(store: FalkmemStore) -> None:
    store.put(("mem",), "a", {"text": "The Helios launch moved to May 14.", "topic": "launch"})
    store.put(("mem",), "b", {"text": "Omar likes espresso in the morning.", "topic": "coffee"})
    store.put(("mem",), "c", {"text": "The Helios launch budget is 2 million."}, index=False)
    store.put(
        ("mem",), "d", {"text": "irrelevant words", "title": "Quarterly espresso report"}, index=["title"]
    )
    hits = store.search(("mem",), query="When does Helios launch?", limit=2)
    assert hits[0].key == "a" and hits[0].score is not None
    assert "c" not in {i.key for i in store.search(("mem",), query="Helios launch budget", limit=10)}
    assert store.get(("mem",), "c") is not None  # not indexed, still stored
    assert "c" in {i.key for i in store.search(("mem",), limit=10)}
    coffee = store.search(("mem",), query="espresso report", limit=1)
    assert coffee[0].key == "d"
    assert store.search(("mem",), query="Helios", filter={"topic": "coffee"})[0].key == "b"


def test_list_namespaces_prefix_suffix_wildcards_depth_paging(store: FalkmemStore) -> None:
    spaces = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
              ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")]  # fmt: skip
    store.batch([PutOp(ns, f"id_{i}", {"data": f"value_{i:02d}"}) for i, ns in enumerate(spaces)])
    assert store.list_namespaces(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]  # fmt: skip
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("admin",), ("b",), ("users",)]
    store.delete(("users", "123"), "id_6")
    assert ("users", "123") not in store.list_namespaces()


def test_batch_reads_before_writes_last_put_wins_and_validation(store: FalkmemStore, mem: Memory) -> None:
    out = store.batch(
        [PutOp(("t",), "k", {"v": 1}), GetOp(("t",), "k"), PutOp(("t",), "k", {"v": 2}), SearchOp(("t",))]
    )
    assert out == [None, None, None, []]  # reads saw the state before the batch
    item = store.get(("t",), "k")
    assert item is not None and item.value == {"v": 2}
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "x"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"v": 1})
    with pytest.raises(InputError) as bad_ttl:
        store.put(("t",), "k", {"v": 3}, ttl=-5)
    assert bad_ttl.value.field == "ttl"
    assert store.get(("t",), "k").value == {"v": 2}  # type: ignore[union-attr]
    assert item_id(("t",), "k") != item_id(("t", "k"), "")
    empty = FalkmemStore(mem, tenant=store.tenant.id + "-none")
    assert (
        empty.get(("t",), "k") is None
        and empty.search(("t",), query="x") == []
        and empty.list_namespaces() == []
    )


def test_async_api(store: FalkmemStore) -> None:
    async def go() -> tuple[Any, ...]:
        await store.aput(("users", "dana"), "trip", {"text": "Dana flies to Lisbon on May 3."})
        got = await store.aget(("users", "dana"), "trip")
        found = await store.asearch(("users",), query="Lisbon trip")
        spaces = await store.alist_namespaces()
        await store.adelete(("users", "dana"), "trip")
        gone = await store.aget(("users", "dana"), "trip")
        return got, found, spaces, gone

    got, found, spaces, gone = asyncio.run(go())
    assert got.value["text"].startswith("Dana flies")
    assert found[0].key == "trip" and spaces == [("users", "dana")] and gone is None


class State(TypedDict, total=False):
    user: str
    message: str
    recalled: list[str]


def test_compiled_graph_writes_and_reads_through_the_injected_store(store: FalkmemStore) -> None:
    def remember(state: State, runtime: Runtime[Any]) -> State:
        assert runtime.store is not None
        if state["message"].endswith("?"):  # questions are not worth remembering
            return {}
        n = len(runtime.store.search(("memories", state["user"]), limit=100))
        runtime.store.put(("memories", state["user"]), f"m{n}", {"text": state["message"]})
        return {}

    def recall(state: State, runtime: Runtime[Any]) -> State:
        assert runtime.store is not None
        hits = runtime.store.search(("memories", state["user"]), query=state["message"], limit=3)
        return {"recalled": [h.value["text"] for h in hits]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    graph = builder.compile(store=store)

    graph.invoke({"user": "dana", "message": "My passport expires in June."})
    graph.invoke({"user": "omar", "message": "I am allergic to peanuts."})
    out = graph.invoke({"user": "dana", "message": "When does my passport expire?"})
    assert out["recalled"][0] == "My passport expires in June."
    assert "I am allergic to peanuts." not in out["recalled"]  # another user's namespace
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "dana"), ("memories", "omar")]
    assert store.tenant.count() == 2  # each statement was stored as one falkmem memory


def test_search_score_is_relevance_and_the_store_drops_below_its_min(
    store: FalkmemStore, mem: Memory
) -> None:
    texts = [
        "My flight to Lisbon leaves on May 3 at 7am from gate 12.",
        "My manager at Northwind is called Omar; we meet every Tuesday.",
        "We are staying at a small hotel near the Alfama district in Lisbon.",
        "I started a new job as a data engineer at Northwind in March.",
        "I rented a car for the second week of the trip to drive to Porto.",
        "My sister lives in Porto and works as a nurse.",
    ]
    for key, text in zip("abcdef", texts, strict=True):
        store.put(("mem",), key, {"text": text})
    every = store.search(("mem",), query="What is the capital of France?", limit=5)
    assert len(every) == 5 and all(i.score is not None and 0 <= i.score < 0.033 for i in every)
    strict = FalkmemStore(mem, tenant=store.tenant.id, min_relevance=0.033)
    assert strict.search(("mem",), query="What is the capital of France?", limit=5) == []
    assert [i.key for i in strict.search(("mem",), query="When does my flight to Lisbon leave?", limit=5)][
        :1
    ] == ["a"]
    assert len(strict.search(("mem",), limit=10)) == 6  # no query: a listing, nothing to measure
    with pytest.raises(InputError):
        FalkmemStore(mem, tenant=store.tenant.id, min_relevance=1.5)
