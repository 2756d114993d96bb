"""Fault evidence: kill -9 during writes, a restart under a live Memory, a pathological hub,
and data surviving a process restart. Each test runs its own embedded server (its own data
directory), so killing it touches nothing else.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from falkmem import ConnectionFailed, FalkmemError, Memory, QueryTimeout, StorageError, Tenant

from .conftest import DenseEmbedder, kill9, server_pid, server_socket, stop_server
from .figures import record
from .store_checks import Integrity, integrity, run, stats_mismatches

BATCH = 50


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "store"
    yield d
    stop_server(d)


def random_unit(seed: int, dim: int = 384) -> list[float]:
    """A reproducible random unit vector.

    The fault tests check that every stored vector is in the HNSW index (a k >= N query
    returns it). Vectors of templated texts ("Memory 1 ...", "Memory 2 ...") are nearly
    equidistant at cosine ~0.8, and FalkorDB's HNSW leaves some of them unreachable even
    without any fault (16 of 300 here), so the records carry random vectors, which it indexes whole.
    """
    v = np.random.default_rng(seed).standard_normal(dim)
    return [float(x) for x in v / np.linalg.norm(v)]


HUB = ("hub corp", "owns", "spoke inc")
"""An edge every memory states: its evidence spills from ``evidence`` to ``evidence_old`` many
times during a run (every 64 statements), so a kill lands in the middle of that too."""


def _records(n: int, start: int = 0) -> list[dict[str, Any]]:
    """Memories with caller-given entities and triples (so every one has REFERENCES and evidence)."""
    return [
        {
            "id": f"m{i:05d}",
            "embedding": random_unit(i),
            "text": f"Memory {i}: person {i} works with team {i % 40} on topic {i % 7}.",
            "entities": [f"Team {i % 40}"],
            "triples": [(f"Person {i}", "works with", f"Team {i % 40}"), ("Hub Corp", "owns", "Spoke Inc")],
        }
        for i in range(start, start + n)
    ]


def _expected_edge(i: int) -> tuple[str, str, str]:
    return (f"person {i}", "related_to", f"team {i % 40}")


class Writer(threading.Thread):
    """Runs add_many in a thread and records what was acknowledged, and when."""

    def __init__(self, tenant: Tenant, records: list[dict[str, Any]]) -> None:
        super().__init__(daemon=True)
        self.tenant, self.records = tenant, records
        self.acked: list[str] = []
        self.ack_times: dict[str, float] = {}
        self.error: BaseException | None = None
        self.batches = 0

    def progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        for r in self.records[len(self.acked) : done]:
            self.acked.append(r["id"])
            self.ack_times[r["id"]] = now
        self.batches += 1

    def run(self) -> None:
        try:
            out = self.tenant.add_many(self.records, batch_size=BATCH, on_progress=self.progress)
            assert list(out.added) == self.acked
        except BaseException as exc:
            self.error = exc


def _check_whole(state: Integrity, acked: set[str], all_ids: list[str]) -> dict[str, int]:
    """Every acknowledged memory present and whole; no partial memory; no half batch."""
    missing = acked - state.ids
    assert not missing, f"{len(missing)} acknowledged memories lost, e.g. {sorted(missing)[:5]}"
    assert not state.without_embedding, f"artifacts without embedding: {sorted(state.without_embedding)[:5]}"
    not_indexed = state.ids - state.indexed
    assert not not_indexed, f"{len(not_indexed)} artifacts missing from the vector index"
    assert not state.duplicated, f"ids stored twice: {state.duplicated}"
    index = {r: n for n, r in enumerate(all_ids)}
    for aid in state.ids:
        i = index[aid]
        assert state.texts[aid].startswith(f"Memory {i}: person {i} works with"), aid
        assert state.entities[aid] >= {f"team {i % 40}"}, f"{aid} lost its REFERENCES"
        assert _expected_edge(i) in state.evidence.get(aid, set()), f"{aid} lost its RELATED_TO evidence"
        assert HUB in state.evidence.get(aid, set()), f"{aid} is missing from the hub edge's evidence"
    # What is there beyond the acknowledged memories can only be the batch in flight at the
    # kill (committed, not yet acknowledged), and only whole.
    extra = state.ids - acked
    if extra:
        batches = {index[x] // BATCH for x in extra}
        assert len(batches) == 1, f"unacknowledged memories from several batches: {sorted(batches)}"
        (b,) = batches
        whole = set(all_ids[b * BATCH : (b + 1) * BATCH])
        assert extra == whole, f"batch {b} is partial: {len(extra)} of {len(whole)} memories"
    assert not state.evidence_twice, f"ids cited twice by one edge: {sorted(state.evidence_twice)[:5]}"
    return {"verified": len(state.ids), "acked": len(acked), "unacked_whole_batch": len(extra)}


def _kill_during_add_many(
    data_dir: Path, appendfsync: str, n: int, kill_after_batches: int
) -> dict[str, Any]:
    m = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync=appendfsync)
    t = m.tenant("faults")
    t.add("Warm-up memory: creates the tenant and its indexes.", id="warm")
    recs = _records(n)
    w = Writer(t, recs)
    pid = server_pid(data_dir)
    w.start()
    deadline = time.monotonic() + 60
    while w.batches < kill_after_batches and w.is_alive() and time.monotonic() < deadline:
        time.sleep(0.002)
    assert w.is_alive(), "the writer finished before the kill: raise n"
    killed_at = time.monotonic()
    kill9(pid)
    w.join(120)
    assert not w.is_alive()
    # The next call after the kill restarts the server from its append-only file (issue 15),
    # so the writer carries on and finishes.
    assert w.error is None, f"the writer should survive the automatic restart, got {w.error!r}"
    assert m._engine.store.server is not None and m._engine.store.server.restarts == 1
    m.close()

    m2 = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync=appendfsync)
    try:
        assert server_pid(data_dir) != pid
        t2 = m2.tenant("faults")
        state = integrity(m2, t2.graph)
        ids = ["warm", *[r["id"] for r in recs]]
        state.texts.pop("warm")
        state.entities.pop("warm", None)
        state.indexed.discard("warm")
        counts = state.id_counts.pop("warm")
        assert counts == 1
        acked = set(w.acked)
        lost = acked - state.ids
        recent = {i for i in lost if killed_at - w.ack_times[i] <= 2.0}
        figures: dict[str, Any] = {"acked_before_kill": len(acked), "lost": len(lost)}
        if appendfsync == "everysec":
            # everysec may lose the last second of acknowledged writes, never older ones.
            assert lost == recent, (
                f"{len(lost - recent)} memories acknowledged > 2 s before the kill were lost"
            )
            acked -= lost
        figures.update(_check_whole(state, acked, ids[1:]))
        # the batch's counters (document frequencies, token and document counts, entity
        # mentions) were written with it or not at all
        assert stats_mismatches(m2, t2.graph) == []
        assert t2.count() == len(state.ids) + 1
        # The store works after the restart: a search finds an acknowledged memory.
        some = sorted(acked)[len(acked) // 2]
        i = int(some[1:])
        # (the stored vectors are random: the text is found by its words, the keyword channel)
        assert (
            some
            in t2.search(f"Memory {i}: person {i} works with team {i % 40}", k=5, channels={"keyword"}).ids
        )
        figures["twice"] = sum(n - 1 for n in state.id_counts.values() if n > 1)
        return figures
    finally:
        m2.close()


def test_kill9_during_add_many_loses_no_acknowledged_memory(data_dir: Path) -> None:
    f = _kill_during_add_many(data_dir, "always", n=3000, kill_after_batches=8)
    record("kill9_add_many_always", faults=1, **f)
    assert f["lost"] == 0 and f["twice"] == 0


def test_kill9_everysec_loses_at_most_the_last_second(data_dir: Path) -> None:
    """``appendfsync everysec`` (the default): the OS has the writes, so a kill of the server
    alone loses nothing here; a power loss could lose up to the last second (not testable here).
    """
    f = _kill_during_add_many(data_dir, "everysec", n=3000, kill_after_batches=8)
    record("kill9_add_many_everysec", faults=1, **f)
    assert f["twice"] == 0


@pytest.mark.slow
def test_kill9_repeatedly_during_add_many(tmp_path: Path) -> None:
    totals = {"faults": 0, "verified": 0, "lost": 0, "twice": 0}
    for round_ in range(5):
        d = tmp_path / f"store{round_}"
        try:
            f = _kill_during_add_many(d, "always", n=4000, kill_after_batches=3 + 7 * round_)
        finally:
            stop_server(d)
        totals["faults"] += 1
        for k in ("verified", "lost", "twice"):
            totals[k] += f[k]
    record("kill9_add_many_repeated", **totals)
    assert totals["lost"] == 0 and totals["twice"] == 0


# --- restart under a live Memory -------------------------------------------------------------


def test_restart_while_memory_in_use_next_call_succeeds(data_dir: Path) -> None:
    m = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync="always")
    try:
        t = m.tenant("restart")
        t.add_many(_records(100))
        pid = server_pid(data_dir)
        kill9(pid)
        # Another process (here: a second Memory) opens the directory and starts a new server
        # on the same socket; the first Memory's pooled connections are dead.
        m2 = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync="always")
        try:
            assert server_pid(data_dir) != pid
            assert t.count() == 100  # retried on a fresh connection
            assert (
                "m00042" in t.search("Memory 42: person 42 works with team 2", k=5, channels={"keyword"}).ids
            )
            assert t.add("After the restart.", id="after") == "after"
            assert t.add_many(_records(100)).skipped == tuple(r["id"] for r in _records(100))
            state = integrity(m2, t.graph)
            assert not state.duplicated and len(state.ids) == 101
        finally:
            m2.close()
    finally:
        m.close()
    record("restart_in_use", faults=1, verified=101, twice=0)


def test_restart_during_concurrent_writes_applies_nothing_twice(data_dir: Path) -> None:
    """Writers keep adding (and re-adding on failure) while the server is killed and restarted."""
    m = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync="always", retry_attempts=12)
    t = m.tenant("restart2")
    t.add("warm", id="warm")
    stop = threading.Event()
    acked: set[str] = set()
    failures: list[str] = []
    lock = threading.Lock()

    def writer(w: int) -> None:
        i = 0
        while not stop.is_set():
            batch = [{**r, "id": f"w{w}-{r['id']}"} for r in _records(10, start=i)]
            for _attempt in range(20):
                try:
                    out = t.add_many(batch, batch_size=10)
                    with lock:
                        acked.update(out.added)
                        acked.update(out.skipped)  # applied by an earlier attempt whose reply was lost
                    break
                except (ConnectionFailed, StorageError) as exc:
                    with lock:
                        failures.append(type(exc).__name__)
                    time.sleep(0.1)
            else:
                raise AssertionError("a batch never succeeded")
            i += 10

    threads = [threading.Thread(target=writer, args=(w,), daemon=True) for w in range(3)]
    for th in threads:
        th.start()
    restarts = 0
    m2: Memory | None = None
    try:
        for _ in range(3):
            time.sleep(0.7)
            kill9(server_pid(data_dir))
            if m2 is not None:
                m2.close()
            m2 = Memory(data_dir, embedder=DenseEmbedder(), extractor="none", appendfsync="always")
            restarts += 1
        time.sleep(0.7)
    finally:
        stop.set()
        for th in threads:
            th.join(120)
    try:
        state = integrity(m, t.graph)
        twice = sum(n - 1 for n in state.id_counts.values() if n > 1)
        assert twice == 0, state.duplicated
        assert acked <= state.ids, f"lost {len(acked - state.ids)} acknowledged"
        assert not state.without_embedding and state.ids <= state.indexed
        assert t.count() == len(state.ids)
    finally:
        if m2 is not None:
            m2.close()
        m.close()
    record(
        "restart_concurrent_writes",
        faults=restarts,
        verified=len(state.ids),
        retried_failures=len(failures),
        twice=twice,
    )


# --- a pathological traversal ----------------------------------------------------------------

HUB_LEAVES = 5_000  # x 2 hubs = 10,000 RELATED_TO edges


def _build_hub(t: Tenant, dim: int) -> None:
    recs = []
    for j in range(HUB_LEAVES // 50):
        leaves = [f"Leaf {j * 50 + i}" for i in range(50)]
        vec = [0.0] * dim
        vec[j % dim] = 1.0
        recs.append(
            {
                "id": f"hub{j}",
                "text": f"Hub record {j}.",
                "embedding": vec,
                "entities": ["Hub Alpha", "Hub Beta"],
                "triples": [("Hub Alpha", "linked to", x) for x in leaves]
                + [("Hub Beta", "linked to", x) for x in leaves],
            }
        )
    t.add_many(recs, batch_size=20)


def test_a_runaway_read_is_stopped_by_the_query_timeout(data_dir: Path) -> None:
    """Every query carries a timeout: a read that would take minutes is stopped by the server."""
    timeout_ms = 300
    with Memory(data_dir, embedder=DenseEmbedder(), extractor="none", query_timeout_ms=timeout_ms) as m:
        t = m.tenant("runaway")
        t.add_many(_records(400))
        started = time.perf_counter()
        with pytest.raises(QueryTimeout) as err:
            run(m, t.graph, "slow_scan")
        elapsed = time.perf_counter() - started
        assert "FALKMEM_QUERY_TIMEOUT_MS" in str(err.value)
        # The server checks its timeout coarsely (~300-400 ms late, falkordb-facts §5.2).
        assert elapsed < timeout_ms / 1000 + 1.5, f"timed out after {elapsed:.2f} s"
        assert t.count() == 400  # the connection is usable afterwards
    record("runaway_read", timeout_ms=timeout_ms, stopped_after_ms=round(elapsed * 1000, 1))


def test_hub_traversal_is_bounded_by_construction(data_dir: Path) -> None:
    """Two hubs of 5,000 RELATED_TO edges each. The old walk enumerated paths through them and
    needed the server's timeout to stop it; the graph channel now never walks a hub's edges
    (entities named by more than graph_max_mentions memories are not followed) and takes at
    most graph_per_entity edges, heaviest first, on its RELATED_TO step, so even with every
    guard opened up it returns, bounded, well inside the query timeout."""
    base = Memory(data_dir, embedder=DenseEmbedder(), extractor="none")
    try:
        t = base.tenant("hub")
        _build_hub(t, 384)
        deg = run(base, t.graph, "degree", {"key": "hub alpha"})[0]["n"]
        assert deg == HUB_LEAVES and run(base, t.graph, "degree", {"key": "hub beta"})[0]["n"] == HUB_LEAVES
        for q in ("How is Hub Alpha linked to Hub Beta?", "Which leaves are linked?"):
            started = time.perf_counter()
            r = t.explain(q, k=10, route="hybrid", max_hops=3)
            guarded_s = time.perf_counter() - started
            assert r.query_route == "hybrid" and len(r.hits) > 0
            assert guarded_s < 2.0, f"guarded hub search took {guarded_s:.2f} s"
        # Guards opened up: hubs followed, 1,000 edges per entity. Still one bounded query.
        with Memory(
            data_dir, embedder=DenseEmbedder(), extractor="none", query_timeout_ms=5_000,
            graph={"max_mentions": 10_000, "per_entity": 1_000},
        ) as wide:  # fmt: skip
            wt = wide.tenant("hub")
            started = time.perf_counter()
            r = wt.explain("Which leaves are linked?", k=10, route="hybrid", max_hops=3)
            elapsed = time.perf_counter() - started
            assert len(r.channels["graph"]) <= wide.settings.graph.limit
            assert elapsed < 5.0, f"unguarded hub search took {elapsed:.2f} s"
            assert wt.count() == HUB_LEAVES // 50
    finally:
        base.close()
    record(
        "hub_bounded", hub_edges=2 * HUB_LEAVES, guarded_ms=round(guarded_s * 1000, 1),
        unguarded_ms=round(elapsed * 1000, 1),
    )  # fmt: skip


# --- surviving a process restart -------------------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import os, sys
    from falkmem import Memory
    from tests.reliability.conftest import DenseEmbedder
    path, mode = sys.argv[1], sys.argv[2]
    m = Memory(path, embedder=DenseEmbedder())
    t = m.tenant("survive")
    from tests.reliability.test_faults import random_unit
    t.add_many([{"id": f"s{i}", "text": f"Survivor {i} keeps the {i % 5} key.", "session": "s",
                 "entities": ["Survivor Group"], "embedding": random_unit(i)} for i in range(300)], batch_size=100)
    print("written", t.count(), flush=True)
    if mode == "crash":
        os._exit(0)  # no close(): the server stays up, the client just vanishes
    m.close()
    """
)


@pytest.mark.parametrize("mode", ["clean", "crash"])
def test_embedded_data_survives_a_process_restart(data_dir: Path, mode: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(data_dir), mode], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "written 300" in out.stdout
    with Memory(data_dir, embedder=DenseEmbedder()) as m:
        t = m.tenant("survive")
        assert t.count() == 300
        assert t.get("s123").text == "Survivor 123 keeps the 3 key." and t.get("s123").session == "s"
        state = integrity(m, t.graph)
        assert len(state.ids) == 300 and state.ids <= state.indexed and not state.duplicated
        assert all("survivor group" in state.entities[i] for i in state.ids)
        assert "s42" in t.search("Survivor 42 keeps the 2 key.", k=5, channels={"keyword"}).ids
    record(f"survive_restart_{mode}", faults=1, verified=300, lost=0)


def test_closing_the_last_client_stops_the_server_and_data_reloads_from_disk(data_dir: Path) -> None:
    with Memory(data_dir, embedder=DenseEmbedder()) as m:
        m.tenant("disk").add_many(_records(200))
        pid = server_pid(data_dir)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            import os

            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the server outlived its last client")
    with Memory(data_dir, embedder=DenseEmbedder()) as m:
        assert server_pid(data_dir) != pid
        t = m.tenant("disk")
        assert t.count() == 200
        state = integrity(m, t.graph)
        assert state.ids <= state.indexed and not state.duplicated and not state.without_embedding
    record("survive_server_stop", faults=0, verified=200)


def test_store_errors_are_falkmem_errors_while_server_is_down(data_dir: Path) -> None:
    """With the server dead and nobody restarting it, calls fail fast with ConnectionFailed.

    (The embedded store restarts its own server, so the calls go through a URL client of the
    server's socket, which cannot.)"""
    owner = Memory(data_dir, embedder=DenseEmbedder())
    m = Memory(url=f"unix://{server_socket(data_dir)}", embedder=DenseEmbedder(), retry_attempts=2)
    try:
        t = m.tenant("down")
        t.add("before", id="b")
        kill9(server_pid(data_dir))
        for call in (lambda: t.count(), lambda: t.add("x"), lambda: t.search("before"), lambda: m.tenants()):
            started = time.perf_counter()
            with pytest.raises(FalkmemError) as err:
                call()
            assert isinstance(err.value, ConnectionFailed), repr(err.value)
            assert time.perf_counter() - started < 10
    finally:
        m.close()
        owner.close()
