"""Restart time of the embedded store (issue 15): kill -9 the server, time the next search.

Run: ``.venv/bin/python -m tests.reliability.measure_restart`` (each run its own temporary store).
The next call finds the server gone, restarts it from its append-only file under the store's
lock, waits for it to load (the HNSW index is rebuilt) and answers.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
from pathlib import Path

import numpy as np

from falkmem import Memory
from falkmem.testing import HashEmbedder


def _pid(d: Path) -> int:
    return int(json.loads((d / "server.json").read_text())["pid"])


def _kill9(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.002)


def measure(n: int, runs: int) -> list[int]:
    d = Path(tempfile.mkdtemp()) / "store"
    rng = np.random.default_rng(0)
    with Memory(d, embedder=HashEmbedder(384), extractor="none", appendfsync="always") as m:
        t = m.tenant("bench")
        for i in range(0, n, 500):
            recs = []
            for j in range(i, min(n, i + 500)):
                v = rng.standard_normal(384)
                recs.append(
                    {
                        "id": f"m{j}",
                        "text": f"memory {j}",
                        "embedding": [float(x) for x in v / np.linalg.norm(v)],
                    }
                )
            t.add_many(recs, batch_size=500)
        out = []
        for _ in range(runs):
            _kill9(_pid(d))
            started = time.perf_counter()
            assert t.search("memory 7", k=5).ids
            out.append(round((time.perf_counter() - started) * 1000))
    return out


if __name__ == "__main__":
    for n, runs in ((100, 10), (5000, 5)):
        ms = measure(n, runs)
        print(
            f"{n} memories: kill -9 -> first successful search, ms: {ms} (median {sorted(ms)[len(ms) // 2]})"
        )
