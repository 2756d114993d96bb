"""Concurrency evidence: 8 workers (4 threads and 4 spawned processes) add and search across
4 tenants of one embedded store for a bounded time. No errors, exact counts per tenant,
no duplicate ids in any result, no hit from another tenant.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from falkmem import Memory
from falkmem.testing import HashEmbedder

from .conftest import stop_server
from .figures import record

TENANTS = [f"conc-{i}" for i in range(4)]
WORDS = [
    "invoice",
    "flight",
    "meeting",
    "deadline",
    "recipe",
    "budget",
    "hiring",
    "roadmap",
    "launch",
    "audit",
]


def worker(path: str, wid: str, seconds: float, seed: int) -> dict[str, Any]:
    """Add and search until the time is up; return what was acknowledged and what went wrong."""
    rng = random.Random(seed)
    acked: dict[str, list[str]] = {t: [] for t in TENANTS}
    errors: list[str] = []
    problems: list[str] = []
    ops = {"add": 0, "add_many": 0, "search": 0, "count": 0}
    n = 0
    with Memory(path, embedder=HashEmbedder(), extractor="none") as mem:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tid = rng.choice(TENANTS)
            t = mem.tenant(tid)
            r = rng.random()
            try:
                if r < 0.35:
                    n += 1
                    w = rng.choice(WORDS)
                    mid = t.add(
                        f"{tid} {wid} note {n} about the {w} of week {n % 52}.", id=f"{tid}/{wid}/{n}"
                    )
                    acked[tid].append(mid)
                    ops["add"] += 1
                elif r < 0.5:
                    recs = []
                    for _ in range(rng.randint(2, 20)):
                        n += 1
                        recs.append(
                            {
                                "id": f"{tid}/{wid}/{n}",
                                "text": f"{tid} {wid} batch note {n} on {rng.choice(WORDS)}.",
                            }
                        )
                    out = t.add_many(recs, batch_size=8)
                    if out.skipped:
                        problems.append(f"fresh ids skipped: {out.skipped[:3]}")
                    acked[tid].extend(out.added)
                    ops["add_many"] += 1
                elif r < 0.95:
                    if not mem.has_tenant(tid):
                        continue
                    k = rng.choice([5, 10, 50, 200])
                    res = t.search(f"the {rng.choice(WORDS)} of week {rng.randint(0, 51)}", k=k)
                    ids = res.ids
                    if len(ids) != len(set(ids)):
                        problems.append(f"duplicate ids in a result of k={k}")
                    foreign = [i for i in ids if not i.startswith(tid + "/")]
                    if foreign:
                        problems.append(f"{tid} got hits of another tenant: {foreign[:3]}")
                    ops["search"] += 1
                else:
                    if mem.has_tenant(tid):
                        t.count()
                        ops["count"] += 1
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}"[:300])
    return {"acked": acked, "errors": errors, "problems": problems, "ops": ops}


def _run(tmp_path: Path, seconds: float) -> None:
    path = tmp_path / "store"
    setup = Memory(path, embedder=HashEmbedder(), extractor="none")  # keeps the server up throughout
    try:
        futures: list[Future[dict[str, Any]]] = []
        ctx = multiprocessing.get_context("spawn")
        with (
            ProcessPoolExecutor(max_workers=4, mp_context=ctx) as procs,
            ThreadPoolExecutor(max_workers=4) as threads,
        ):
            for i in range(4):
                futures.append(procs.submit(worker, str(path), f"p{i}", seconds, 100 + i))
            for i in range(4):
                futures.append(threads.submit(worker, str(path), f"t{i}", seconds, 200 + i))
            results = [f.result(timeout=seconds + 300) for f in futures]
        errors = [e for r in results for e in r["errors"]]
        problems = [p for r in results for p in r["problems"]]
        ops = sum(sum(r["ops"].values()) for r in results)
        per_tenant = {t: sum(len(r["acked"][t]) for r in results) for t in TENANTS}
        counts = {t: setup.tenant(t).count() for t in TENANTS}
        all_acked = [i for r in results for t in TENANTS for i in r["acked"][t]]
        record(
            f"concurrency_{int(seconds)}s", workers="4 threads + 4 processes", tenants=len(TENANTS),
            operations=ops, errors=len(errors), problems=len(problems), acked_adds=sum(per_tenant.values()),
        )  # fmt: skip
        assert not errors, errors[:5]
        assert not problems, problems[:5]
        assert len(all_acked) == len(set(all_acked)), "an id was acknowledged twice"
        assert counts == per_tenant, f"count() {counts} != acknowledged adds {per_tenant}"
        assert all(n > 0 for n in per_tenant.values()) and ops > 100
        # Every acknowledged memory reads back from its own tenant only.
        rng = random.Random(0)
        for tid in TENANTS:
            mine = [i for r in results for i in r["acked"][tid]]
            for mid in rng.sample(mine, min(20, len(mine))):
                assert setup.tenant(tid).get(mid).id == mid
    finally:
        for tid in TENANTS:
            setup.drop_tenant(tid)
        setup.close()
        stop_server(path)


def test_eight_workers_four_tenants(tmp_path: Path) -> None:
    _run(tmp_path, seconds=20)


@pytest.mark.slow
def test_eight_workers_four_tenants_long(tmp_path: Path) -> None:
    _run(tmp_path, seconds=120)
