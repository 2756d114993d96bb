"""``FalkmemStore`` filters with NaN and ±infinity (issue 50): an equality matches nothing and an
order comparison with NaN is false, as in LangGraph's ``InMemoryStore``; a value that is not
JSON is an error naming the caller's filter field, never the stored ``v:`` key."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("langgraph")

from langgraph.store.memory import InMemoryStore

from falkmem import InputError, Memory, Tenant
from falkmem.integrations.langgraph import FalkmemStore

FILTERS = [
    {"price": math.nan}, {"price": {"$eq": math.inf}}, {"price": -math.inf}, {"price": {"$gt": math.nan}},
    {"price": {"$lte": math.nan}}, {"price": [math.nan]},
]  # fmt: skip


def test_non_finite_filters_match_nothing_like_the_in_memory_store(mem: Memory, tenant: Tenant) -> None:
    store = FalkmemStore(mem, tenant=tenant.id)
    reference = InMemoryStore()
    for s in (store, reference):
        s.put(("docs",), "lamp", {"text": "The blue lamp costs 3.5 euros.", "price": 3.5})
        s.put(("docs",), "chair", {"text": "The red chair is free.", "price": 0})
    assert len(store.search(("docs",), filter={"price": 3.5})) == 1
    for flt in FILTERS:
        expected = [i.key for i in reference.search(("docs",), filter=flt)]
        assert expected == [], flt
        assert [i.key for i in store.search(("docs",), filter=flt)] == expected, flt
        assert [i.key for i in store.search(("docs",), query="lamp", filter=flt)] == expected, flt
    # $ne NaN holds for every item (NaN equals nothing)
    assert sorted(i.key for i in store.search(("docs",), filter={"price": {"$ne": math.nan}})) == [
        "chair",
        "lamp",
    ]


def test_a_filter_value_that_is_not_json_names_the_filter_field(mem: Memory, tenant: Tenant) -> None:
    store = FalkmemStore(mem, tenant=tenant.id)
    store.put(("docs",), "lamp", {"text": "The blue lamp costs 3.5 euros.", "price": 3.5})
    with pytest.raises(InputError) as err:
        store.search(("docs",), filter={"price": {1, 2}})
    assert err.value.field == "filter.price" and "v:" not in str(err.value)
