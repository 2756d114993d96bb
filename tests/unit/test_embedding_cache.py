"""Tests for falkmem.embedding.cache: the per-process LRU of query embeddings."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from falkmem.embedding.base import embed_checked
from falkmem.embedding.cache import CachedEmbedder, QueryCache, shared_cache
from falkmem.testing import HashEmbedder


class Counting(HashEmbedder):
    def __init__(self, name: str = "hash") -> None:
        super().__init__(8, name=name)
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return super().embed(texts)


def test_a_repeated_question_is_embedded_once() -> None:
    inner = Counting()
    emb = CachedEmbedder(inner, QueryCache(4))
    first = embed_checked(emb, ["who leads atlas?"], dimension=8)
    again = embed_checked(emb, ["who leads atlas?"], dimension=8)
    assert first == again == inner.embed(["who leads atlas?"])
    assert inner.calls == [["who leads atlas?"], ["who leads atlas?"]]  # the model once (+ the check)
    assert (emb.cache.hits, emb.cache.misses) == (1, 1)
    assert (emb.name, emb.dimension) == (inner.name, inner.dimension)


def test_batches_bypass_the_cache() -> None:
    inner = Counting()
    emb = CachedEmbedder(inner, QueryCache(4))
    emb.embed(["a", "b"])
    emb.embed(["a", "b"])
    assert len(inner.calls) == 2 and len(emb.cache) == 0
    assert emb.embed([]) == []


def test_least_recently_used_goes_first() -> None:
    inner = Counting()
    emb = CachedEmbedder(inner, QueryCache(2))
    for text in ["a", "b", "a", "c"]:  # "a" used again, so "b" is the one evicted
        emb.embed([text])
    inner.calls.clear()
    emb.embed(["a"])
    emb.embed(["c"])
    emb.embed(["b"])
    assert inner.calls == [["b"]]


def test_models_do_not_share_vectors_and_callers_cannot_corrupt_them() -> None:
    cache = QueryCache(8)
    first, second = Counting("one"), Counting("two")
    one, two = CachedEmbedder(first, cache), CachedEmbedder(second, cache)
    a = one.embed(["same text"])[0]
    two.embed(["same text"])
    assert second.calls == [["same text"]] and len(cache) == 2  # another model: its own entry
    a[0] = 99.0
    assert one.embed(["same text"])[0][0] != 99.0


def test_wrappers_share_entries_only_under_one_scope() -> None:
    cache = QueryCache(8)
    a, b = Counting("same-name"), Counting("same-name")
    CachedEmbedder(a, cache).embed(["q"])
    CachedEmbedder(b, cache).embed(["q"])
    assert b.calls == [["q"]]  # two folders may carry one name: not shared by default
    c, d = Counting("minilm"), Counting("minilm")
    CachedEmbedder(c, cache, scope="minilm").embed(["q"])
    CachedEmbedder(d, cache, scope="minilm").embed(["q"])
    assert d.calls == []  # the bundled model: one entry whoever built the embedder


def test_size_zero_keeps_nothing_and_the_shared_cache_is_per_process() -> None:
    emb = CachedEmbedder(Counting(), QueryCache(0))
    emb.embed(["q"])
    emb.embed(["q"])
    assert len(emb.cache) == 0
    assert shared_cache(16) is shared_cache(16)


def test_concurrent_use_is_safe() -> None:
    emb = CachedEmbedder(Counting(), QueryCache(32))
    want = {f"q{i}": emb.inner.embed([f"q{i}"])[0] for i in range(64)}
    errors: list[str] = []

    def work() -> None:
        for i in range(64):
            if emb.embed([f"q{i}"])[0] != want[f"q{i}"]:
                errors.append(f"q{i}")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(emb.cache) == 32
