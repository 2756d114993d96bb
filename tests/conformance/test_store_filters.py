"""``search`` filters and pagination, as ``BaseStore`` documents them and LangGraph's in-memory
store evaluates them (issue 50): the same items must match on both."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from falkmem.integrations.langgraph import FalkmemStore

DOCS: dict[str, dict[str, Any]] = {
    "d1": {"kind": "report", "score": 4.5, "tags": ["a", "b"], "meta": {"lang": "en", "level": 2}},
    "d2": {"kind": "memo", "score": 3.0, "tags": ["a"], "meta": {"lang": "de", "level": 1}},
    "d3": {"kind": "report", "score": 4.0, "meta": {"lang": "en", "level": 3}},
    "d4": {"kind": "memo", "score": 3.5, "flag": True, "meta": {"lang": "fr"}},
    "d5": {"kind": "note", "score": 5, "flag": False},
}

FILTERS: list[dict[str, Any]] = [
    {"kind": "report"},
    {"kind": {"$eq": "memo"}},
    {"kind": {"$ne": "memo"}},
    {"score": {"$gt": 3.5}},
    {"score": {"$gte": 3.5}},
    {"score": {"$lt": 4}},
    {"score": {"$lte": 4}},
    {"score": {"$gte": 3.5, "$lt": 5}},  # operators on one field are ANDed
    {"kind": "report", "score": {"$gt": 4.2}},  # fields are ANDed
    {"score": 5.0},  # 5 and 5.0 are one JSON number
    {"flag": True},
    {"flag": False},
    {"tags": ["a", "b"]},  # a list matches a whole list
    {"meta": {"lang": "en"}},  # a partial match of a nested object
    {"score": {"$gt": math.nan}},
    {"kind": "nothing"},
]


@pytest.fixture
def loaded(store: FalkmemStore) -> tuple[FalkmemStore, InMemoryStore]:
    reference = InMemoryStore()
    for key, value in DOCS.items():
        for s in (store, reference):
            s.put(("docs",), key, value)
    return store, reference


@pytest.mark.parametrize("flt", FILTERS, ids=str)
def test_filters_match_what_langgraphs_in_memory_store_matches(
    loaded: tuple[FalkmemStore, InMemoryStore], flt: dict[str, Any]
) -> None:
    store, reference = loaded
    expected = sorted(i.key for i in reference.search(("docs",), filter=flt, limit=100))
    assert sorted(i.key for i in store.search(("docs",), filter=flt, limit=100)) == expected
    found = store.search(("docs",), query="quarterly report", filter=flt, limit=100)
    assert sorted(i.key for i in found) == expected  # the same filter under a query


def test_a_dotted_filter_key_is_a_path_into_nested_objects(
    loaded: tuple[FalkmemStore, InMemoryStore],
) -> None:
    store, _ = loaded  # (as LangGraph's SQLite store reads it; the in-memory store of 4.3 does not)
    assert sorted(i.key for i in store.search(("docs",), filter={"meta.level": {"$gte": 2}})) == ["d1", "d3"]
    assert [i.key for i in store.search(("docs",), filter={"meta.lang": "de"})] == ["d2"]
    assert store.search(("docs",), filter={"missing": {"$gt": 1}}) == []


def test_an_unknown_operator_is_an_error_naming_the_field(store: FalkmemStore) -> None:
    store.put(("docs",), "d", {"n": 1})
    with pytest.raises(ValueError, match=r"filter\.n.*\$in"):
        store.search(("docs",), filter={"n": {"$in": [1, 2]}})


def test_pages_cover_the_listing_newest_first_without_gaps(store: FalkmemStore) -> None:
    for i in range(7):
        store.put(("p",), f"k{i}", {"i": i, "even": i % 2 == 0})
        time.sleep(0.002)
    full = [i.key for i in store.search(("p",), limit=100)]
    assert full == [f"k{i}" for i in reversed(range(7))]  # updated_at descending, as Postgres/SQLite
    assert [
        k for off in range(0, 7, 3) for k in (i.key for i in store.search(("p",), limit=3, offset=off))
    ] == full
    even = [i.key for i in store.search(("p",), filter={"even": True}, limit=100)]
    assert [i.key for i in store.search(("p",), filter={"even": True}, limit=2, offset=1)] == even[1:3]
    assert store.search(("p",), limit=0) == [] and store.search(("p",), offset=7) == []
    store.put(("p",), "k0", {"i": 0, "even": True})  # an update moves the item to the front
    assert store.search(("p",), limit=1)[0].key == "k0"
    assert all(i.score is None for i in store.search(("p",)))  # no query, no score
