"""A per-process LRU cache of query embeddings, for questions asked again.

A search embeds its question alone (one text per call); an agent often asks the same
question again (a retry, a follow-up tool call, a benchmark sweep). :class:`CachedEmbedder`
wraps an embedder and keeps the vectors of single-text calls, keyed by a scope (the model's
name for the bundled MiniLM) and the text, in one LRU per process. A miss costs a
dictionary lookup before the model runs and an insert after: nothing on the critical path.
Batches (ingestion) go straight to the model and are not kept.
"""

from __future__ import annotations

import itertools
import threading
from array import array
from collections import OrderedDict
from collections.abc import Sequence

from .base import Embedder

__all__ = ["CachedEmbedder", "QueryCache", "shared_cache"]


class QueryCache:
    """A thread-safe LRU of ``(model name, text) -> vector``."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[tuple[str, str], array[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, model: str, text: str) -> list[float] | None:
        with self._lock:
            got = self._data.get((model, text))
            if got is None:
                self.misses += 1
                return None
            self._data.move_to_end((model, text))
            self.hits += 1
        return got.tolist()

    def put(self, model: str, text: str, vector: Sequence[float]) -> None:
        if self.maxsize <= 0:
            return
        stored = array("d", vector)
        with self._lock:
            self._data[(model, text)] = stored
            self._data.move_to_end((model, text))
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0


_shared: dict[int, QueryCache] = {}
_shared_lock = threading.Lock()


def shared_cache(maxsize: int) -> QueryCache:
    """The process's query cache of this size (one per size; in practice one)."""
    with _shared_lock:
        cache = _shared.get(maxsize)
        if cache is None:
            cache = _shared[maxsize] = QueryCache(maxsize)
        return cache


_instances = itertools.count(1)


class CachedEmbedder:
    """An embedder whose single-text calls are answered from a :class:`QueryCache`.

    ``scope`` is the key its vectors are kept under: pass the model's name when every
    embedder of that name gives the same vectors (the bundled MiniLM, torch or ONNX), so
    that they share entries; by default each wrapper has a scope of its own (two local
    model folders can carry the same name).
    """

    def __init__(self, inner: Embedder, cache: QueryCache, *, scope: str | None = None) -> None:
        self.inner = inner
        self.cache = cache
        self.scope = scope if scope is not None else f"{inner.name}#{next(_instances)}"

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) != 1:
            return self.inner.embed(texts)
        [text] = texts
        hit = self.cache.get(self.scope, text)
        if hit is not None:
            return [hit]
        vectors = self.inner.embed(texts)
        if len(vectors) == 1:
            self.cache.put(self.scope, text, vectors[0])
        return vectors
