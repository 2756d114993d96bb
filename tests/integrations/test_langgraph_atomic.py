"""``FalkmemStore.put`` over an existing key is atomic for readers (issue 50): while one thread
overwrites an item hundreds of times, ``get()`` and ``search()`` in other threads always find it
(the put deleted the item, then embedded and added it again: 64-81 % of reads saw it missing)."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("langgraph")

from falkmem import Memory, Tenant
from falkmem.embedding.cache import CachedEmbedder, QueryCache
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.integrations.langgraph import FalkmemStore

OVERWRITES = 500
READS = 10_000
NS, KEY = ("users", "dana"), "seat"


def _value(i: int) -> dict[str, object]:
    # two texts (the store embeds "text" only): the model runs twice, then its query cache answers
    return {"text": f"Dana prefers {'window' if i % 2 else 'aisle'} seats on long flights.", "v": i}


def test_overwrites_never_hide_the_item_from_get_or_search(
    mem: Memory, tenant: Tenant, store_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    # MiniLM behind the query cache, as Memory() builds it by default: one put embeds one text
    cached = CachedEmbedder(embedder, QueryCache(16))
    url = os.environ.get("FALKMEM_TEST_URL")
    with Memory(url=url, embedder=cached) if url else Memory(store_path, embedder=cached) as m:
        _overwrite_while_reading(m, tenant)


def _overwrite_while_reading(mem: Memory, tenant: Tenant) -> None:
    store = FalkmemStore(mem, tenant=tenant.id, index=["text"])
    store.put(NS, KEY, _value(0))
    store.put(NS, "trip", {"text": "Dana flies to Lisbon on May 3."})
    store.put(("users", "omar"), KEY, {"text": "Omar prefers window seats."})
    created = store.get(NS, KEY).created_at  # type: ignore[union-attr]
    counts: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    backwards: list[tuple[int, int]] = []
    errors: list[BaseException] = []
    writes = [0]
    stop = threading.Event()

    def enough() -> bool:
        return writes[0] >= OVERWRITES and sum(counts.values()) >= READS

    def writer() -> None:
        try:
            i = 0
            while not enough() and not stop.is_set():
                i += 1
                store.put(NS, KEY, _value(i))
                writes[0] = i
        except BaseException as exc:  # reported by the test thread
            errors.append(exc)
        finally:
            stop.set()

    def getter() -> None:
        seen = 0
        try:
            while not stop.is_set():
                item = store.get(NS, KEY)
                counts["get"] += 1
                if item is None:
                    missing["get"] += 1
                    continue
                v = int(item.value["v"])
                if v < seen:
                    backwards.append((seen, v))
                seen = v
        except BaseException as exc:
            errors.append(exc)
            stop.set()

    def searcher() -> None:
        try:
            n = 0
            while not stop.is_set():
                n += 1
                if n % 4 == 0:  # a search by query (embedded, routed) every fourth read
                    found = store.search(NS, query="Which seat does Dana prefer?", limit=5)
                    what = "search(query)"
                else:
                    found = store.search(NS, limit=10)
                    what = "search"
                counts[what] += 1
                if [i.key for i in found].count(KEY) != 1:
                    missing[what] += 1
        except BaseException as exc:
            errors.append(exc)
            stop.set()

    threads = [threading.Thread(target=f) for f in (writer, getter, searcher)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    elapsed = time.perf_counter() - t0
    assert not errors, errors
    total = sum(counts.values())
    print(
        f"\n{writes[0]} overwrites, {total} reads {dict(counts)} in {elapsed:.1f} s; missing {dict(missing)}"
    )
    assert writes[0] >= OVERWRITES and total >= READS
    assert not missing, f"missing in {dict(missing)} of {dict(counts)} reads"
    assert not backwards, backwards[:5]
    final = store.get(NS, KEY)
    assert final is not None and final.value == _value(writes[0]) and final.created_at == created
    assert store.tenant.count() == 3  # one memory per item: every replaced version was retired


def test_a_put_interrupted_before_retiring_the_old_version(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both versions stored (the process died between writing the new one and erasing the old):
    reads see the newer once, and the next put frees the older slot and leaves one memory."""
    store = FalkmemStore(mem, tenant=tenant.id, index=["text"])
    store.put(NS, KEY, _value(1))
    with monkeypatch.context() as m:
        m.setattr(FalkmemStore, "_delete", lambda self, ids: None)  # the erase never happens
        store.put(NS, KEY, _value(2))
    assert store.tenant.count() == 2
    assert store.get(NS, KEY).value == _value(2)  # type: ignore[union-attr]
    assert [i.value for i in store.search(NS)] == [_value(2)]
    assert [i.value for i in store.search(NS, query="Which seat does Dana prefer?")] == [_value(2)]
    store.put(NS, KEY, _value(3))
    assert store.tenant.count() == 1 and store.get(NS, KEY).value == _value(3)  # type: ignore[union-attr]
    store.delete(NS, KEY)
    assert store.get(NS, KEY) is None and store.tenant.count() == 0
