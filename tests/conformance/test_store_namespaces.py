"""Namespaces, ``list_namespaces`` and batches, as ``BaseStore`` documents them (issue 50)."""

from __future__ import annotations

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from falkmem import InputError
from falkmem.integrations.langgraph import FalkmemStore

SPACES = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
          ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")]  # fmt: skip


def test_list_namespaces_prefix_suffix_wildcards_depth_and_pages(store: FalkmemStore) -> None:
    store.batch([PutOp(ns, f"id_{i}", {"n": i}) for i, ns in enumerate(SPACES)])
    ls = store.list_namespaces
    assert ls() == sorted(SPACES)  # sorted, every namespace holding an item
    assert ls(prefix=("a", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert ls(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert ls(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert ls(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]  # * is one label
    assert ls(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert ls(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert ls(max_depth=1) == [("a",), ("admin",), ("b",), ("users",)]
    assert ls(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert ls(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert ls(prefix=("a", "b"), limit=1, offset=1) == [("a", "b", "d", "e")]
    assert ls(prefix=("user",)) == [] and ls(suffix=("alice",)) == []  # labels match whole
    assert ls(prefix=("users", "123")) == [("users", "123")]
    store.delete(("users", "123"), "id_6")
    assert ("users", "123") not in ls()  # a namespace is listed while it holds an item


def test_namespaces_are_isolated_and_prefix_search_stops_at_labels(store: FalkmemStore) -> None:
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("user_1",), ("a%b",), ("users", "alice\n")]:
        store.put(ns, "k", {"ns": list(ns)})
    assert {i.namespace for i in store.search(("foo",))} == {("foo",), ("foo", "child")}
    assert {i.namespace for i in store.search(("fo",))} == set()
    assert {i.namespace for i in store.search(("a%b",))} == {("a%b",)}
    assert store.get(("users", "alice"), "k") is None  # "alice\n" is another label
    assert len(store.search((), limit=100)) == 6  # the empty prefix is every namespace
    got = store.get(("foo", "child"), "k")
    assert got is not None and got.value == {"ns": ["foo", "child"]}


@pytest.mark.parametrize("namespace", [("foo.bar",), ("foo", ""), ("foo", 1), ("x\x00",)])
@pytest.mark.parametrize("kind", ["get", "put", "delete", "search", "list_prefix", "list_suffix"])
def test_a_bad_label_fails_the_whole_batch_before_anything_is_written(
    store: FalkmemStore, namespace: tuple[str, ...], kind: str
) -> None:
    op = {
        "get": GetOp(namespace, "key"),
        "put": PutOp(namespace, "key", {"changed": True}),
        "delete": PutOp(namespace, "key", None),
        "search": SearchOp(namespace),
        "list_prefix": ListNamespacesOp((MatchCondition("prefix", namespace),)),
        "list_suffix": ListNamespacesOp((MatchCondition("suffix", namespace),)),
    }[kind]
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("valid",), "key", {"v": 1}), op])
    assert store.get(("valid",), "key") is None


def test_put_refuses_the_reserved_root_and_an_empty_namespace(store: FalkmemStore) -> None:
    for ns in [(), ("langgraph", "x")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(ns, "k", {"v": 1})
    store.batch([PutOp(("langgraph", "x"), "k", {"v": 1})])  # past the public put, as in LangGraph
    assert store.get(("langgraph", "x"), "k") is not None


def test_batch_results_follow_the_ops_and_reads_see_the_state_before_the_writes(store: FalkmemStore) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    out = store.batch(
        [
            GetOp(("test", "foo"), "key1"),
            PutOp(("test", "bar"), "key2", {"data": "value2"}),
            SearchOp(("test",), filter={"data": "value2"}),
            ListNamespacesOp(),
            GetOp(("test", "bar"), "key2"),
            PutOp(("test", "bar"), "key2", {"data": "last"}),
        ]
    )
    assert isinstance(out[0], Item) and out[0].value == {"data": "value1"}
    assert out[1] is None and out[5] is None
    assert out[2] == [] and out[4] is None  # written after the batch's reads
    assert out[3] == [("test", "foo")]
    assert store.get(("test", "bar"), "key2").value == {"data": "last"}  # type: ignore[union-attr]  # the last put wins
    assert store.batch([PutOp(("test", "foo"), "key1", None), GetOp(("test", "foo"), "key1")])[1] is not None
    assert store.get(("test", "foo"), "key1") is None


def test_paging_arguments_are_checked(store: FalkmemStore) -> None:
    for bad in ({"limit": -1}, {"offset": -2}):
        with pytest.raises(InputError) as err:
            store.search(("a",), **bad)  # type: ignore[arg-type]
        assert err.value.field == next(iter(bad))
    with pytest.raises(InputError) as err:
        store.list_namespaces(limit=-1)
    assert err.value.field == "limit"
