"""A keyed fact replaced by ``add(key=...)`` is never missing for a concurrent reader (issue 50):
the new version is created and the old one superseded in one query (``ingest/create_artifacts``),
so one query sees exactly one active version at any time. Guards the SDK's replacement path
against a split into a write and a retire."""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path

from falkmem import Memory, Tenant
from falkmem.embedding.cache import CachedEmbedder, QueryCache
from falkmem.embedding.minilm import SentenceTransformerEmbedder

OVERWRITES = 500
READS = 10_000
KEY = "dana-seat"


def _text(i: int) -> str:
    return f"Dana prefers {'window' if i % 2 else 'aisle'} seats on long flights."


def test_key_supersession_never_hides_the_fact(
    mem: Memory, tenant: Tenant, store_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    cached = CachedEmbedder(embedder, QueryCache(16))  # one text per add: as Memory() builds it
    url = os.environ.get("FALKMEM_TEST_URL")
    with Memory(url=url, embedder=cached) if url else Memory(store_path, embedder=cached) as m:
        t = m.tenant(tenant.id)
        t.add(_text(0), key=KEY, kind="fact")
        t.add("Dana flies to Lisbon on May 3.")
        counts: Counter[str] = Counter()
        bad: Counter[str] = Counter()
        seen: list[object] = []
        doubled: Counter[str] = Counter()
        errors: list[BaseException] = []
        writes = [0]
        stop = threading.Event()

        def writer() -> None:
            try:
                while not stop.is_set() and (writes[0] < OVERWRITES or sum(counts.values()) < READS):
                    writes[0] += 1
                    t.add(_text(writes[0]), key=KEY, kind="fact")
            except BaseException as exc:
                errors.append(exc)
            finally:
                stop.set()

        def reader() -> None:
            n = 0
            try:
                while not stop.is_set():
                    n += 1
                    if n % 20 == 0:
                        keyed = [
                            h for h in t.search("Which seat does Dana prefer?", k=5).hits if h.key == KEY
                        ]
                        what = "search"
                    else:
                        keyed = [h for h in t.list(limit=10) if h.key == KEY]
                        what = "list"
                    counts[what] += 1
                    if not any(h.status == "active" for h in keyed) or (what == "list" and len(keyed) != 1):
                        bad[what] += 1
                        seen.append([(h.id, h.status) for h in keyed])
                    elif len(keyed) > 1:  # a search's channels read at different moments (see below)
                        doubled[what] += 1
            except BaseException as exc:
                errors.append(exc)
                stop.set()

        threads = [threading.Thread(target=f) for f in (writer, reader)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=600)
        assert not errors, errors
        assert writes[0] >= OVERWRITES and sum(counts.values()) >= READS, (writes, counts)
        # Never missing, never twice. A search's channels are separate queries, one can run
        # before a supersession and the next after it, so they found two versions of the key
        # (about 1 % of the searches here) until the search kept the newest (one_per_key).
        print(f"\n{writes[0]} supersessions, reads {dict(counts)}, two versions in {dict(doubled)}")
        assert not bad, f"missing in {dict(bad)} of {dict(counts)} reads: {seen[:5]}"
        assert not doubled, f"two versions of the key in {dict(doubled)} of {dict(counts)} reads"
        assert [h.text for h in t.list() if h.key == KEY] == [_text(writes[0])]
        assert len(t.history(KEY, limit=1000)) == min(1000, writes[0] + 1)


SEARCHES = 1200
QUESTIONS = ("Which seat does Dana prefer?", "Where does Dana like to sit on long flights?")


def _meal(i: int) -> str:
    return f"Dana orders the vegetarian meal on flights (version {i})."


def test_searches_during_supersessions_show_one_version_of_each_key(
    mem: Memory, tenant: Tenant, store_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    """Issue 50: while writer threads supersede two keys, searcher threads (every route, k 1 to
    10) never get two memories with the same key, and the one they get is never older than the
    version that was current when the search began. Before the fix 1-3 % of the searches held
    two versions (33 of 1202 in one run on main)."""
    cached = CachedEmbedder(embedder, QueryCache(64))  # the questions repeat: their vectors are cached
    url = os.environ.get("FALKMEM_TEST_URL")
    with Memory(url=url, embedder=cached) if url else Memory(store_path, embedder=cached) as m:
        t = m.tenant(tenant.id)
        keys = (KEY, "dana-meal")
        written = {key: 0 for key in keys}
        t.add(_text(0), key=KEY, kind="fact")
        t.add(_meal(0), key="dana-meal", kind="fact")
        t.add("Dana flies to Lisbon on May 3 and sits near the wing.")
        searches = [0]
        twice: list[list[tuple[str | None, str]]] = []
        stale: list[tuple[str, str]] = []
        errors: list[BaseException] = []
        stop = threading.Event()
        lock = threading.Lock()

        def writer(key: str) -> None:
            try:
                while not stop.is_set():
                    n = written[key] + 1
                    t.add(_text(n) if key == KEY else _meal(n), key=key, kind="fact")
                    written[key] = n
            except BaseException as exc:
                errors.append(exc)
                stop.set()

        def searcher(worker: int) -> None:
            i = 0
            try:
                while not stop.is_set():
                    i += 1
                    before = dict(written)  # versions acknowledged before this search began
                    r = t.search(QUESTIONS[i % 2], k=1 + (i + worker) % 10,
                                 route=("auto", "vector", "hybrid")[i % 3])  # fmt: skip
                    keyed = [(h.key, h.text) for h in r.hits if h.key is not None]
                    if len({key for key, _ in keyed}) < len(keyed):
                        twice.append(keyed)
                    for key, text in keyed:
                        version = int(text.rsplit("version ", 1)[1].rstrip(").")) if key != KEY else None
                        if version is not None and version < before[key]:
                            stale.append((key, text))
                    with lock:
                        searches[0] += 1
                        if searches[0] >= SEARCHES:
                            stop.set()
            except BaseException as exc:
                errors.append(exc)
                stop.set()

        threads = [threading.Thread(target=writer, args=(key,)) for key in keys]
        threads += [threading.Thread(target=searcher, args=(w,)) for w in range(3)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=900)
        assert not errors, errors
        print(f"\n{searches[0]} searches, supersessions {written}, two versions in {len(twice)}")
        assert searches[0] >= SEARCHES and min(written.values()) >= 50, (searches, written)
        assert not twice, f"{len(twice)} of {searches[0]} searches held two versions of a key: {twice[:3]}"
        assert not stale, f"a superseded version came back: {stale[:3]}"
