"""Sizing numbers for docs/scaling.md: memory per N memories (HNSW included), ingest and query rate.

Runs on one FalkorDB node (the embedded store in a temporary directory), which is what one
cluster shard is. Memory is ``INFO memory`` ``used_memory`` after the inserts minus before
(tenant created, indexes empty). Vectors are 384-d from ``HashEmbedder`` (what MiniLM gives);
its embedding time is measured on its own and reported apart from the store's rate.

Usage::

    python benchmarks/cluster_sizing.py                 # 10k memories
    python benchmarks/cluster_sizing.py --n 10000 --n 100000 --extractor none
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from falkmem import Memory
from falkmem.testing import HashEmbedder

_WORDS = [
    "project", "deadline", "meeting", "budget", "customer", "release", "review", "design",
    "vendor", "contract", "travel", "invoice", "hiring", "roadmap", "incident", "migration",
    "dashboard", "feedback", "training", "launch", "quarter", "report", "support", "pricing",
]  # fmt: skip
_NAMES = ["Dana", "Sam", "Priya", "Luis", "Mei", "Omar", "Anya", "Kofi", "Ines", "Tomas"]


def _text(rng: random.Random, i: int) -> str:
    """A memory of about 150 characters, like a short agent observation."""
    words = " ".join(rng.choice(_WORDS) for _ in range(12))
    return f"{rng.choice(_NAMES)} noted item {i}: {words}."


def _used_memory(mem: Memory) -> int:
    return int(mem._engine.store.db.connection.info("memory")["used_memory"])


def _search_rates(t: Any, probes: list[str], threads: int, channels: list[str] | None) -> dict[str, float]:
    """Searches per second (one thread, then ``threads``) and latency percentiles, k=10."""
    t.search(probes[0], k=10, channels=channels)  # warm
    lat: list[float] = []
    for q in probes:
        s = time.perf_counter()
        t.search(q, k=10, channels=channels)
        lat.append(time.perf_counter() - s)
    per_thread = max(1, len(probes) // threads)

    def worker() -> None:
        for q in probes[:per_thread]:
            t.search(q, k=10, channels=channels)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    s = time.perf_counter()
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    parallel_s = time.perf_counter() - s
    lat.sort()
    return {
        "per_s_1_thread": round(len(probes) / sum(lat), 1),
        f"per_s_{threads}_threads": round(per_thread * threads / parallel_s, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p95_ms": round(lat[int(0.95 * len(lat)) - 1] * 1000, 2),
    }


def measure(n: int, *, extractor: str, batch: int, queries: int, threads: int) -> dict[str, Any]:
    """Insert ``n`` memories into a fresh tenant and measure memory, ingest and search rates."""
    rng = random.Random(7)
    records = [{"id": f"m{i}", "text": _text(rng, i)} for i in range(n)]
    embedder = HashEmbedder()
    started = time.perf_counter()
    embedder.embed([r["text"] for r in records[: min(n, 5000)]])
    embed_rate = min(n, 5000) / (time.perf_counter() - started)
    with tempfile.TemporaryDirectory() as d, Memory(Path(d), embedder=embedder, extractor=extractor) as mem:
        t = mem.create_tenant("sizing")
        before = _used_memory(mem)
        started = time.perf_counter()
        t.add_many(records, batch_size=batch)
        ingest_s = time.perf_counter() - started
        after = _used_memory(mem)
        assert t.count() == n
        probes = [records[rng.randrange(n)]["text"] for _ in range(queries)]
        default = _search_rates(t, probes, threads, channels=None)
        vector = _search_rates(t, probes, threads, channels=["vector"])
    delta = after - before
    return {
        "memories": n,
        "extractor": extractor,
        "used_memory_delta_mib": round(delta / 2**20, 1),
        "bytes_per_memory": round(delta / n),
        "ingest_per_s": round(n / ingest_s),
        "ingest_s": round(ingest_s, 1),
        "hash_embed_per_s": round(embed_rate),
        "search_default": default,
        "search_vector_only": vector,
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, action="append", help="memories to insert (repeatable); default 10000")
    ap.add_argument("--extractor", default="none", choices=["none", "rules"])
    ap.add_argument("--batch", type=int, default=500, help="add_many batch size")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--threads", type=int, default=4)
    args = ap.parse_args()
    for n in args.n or [10_000]:
        result = measure(
            n, extractor=args.extractor, batch=args.batch, queries=args.queries, threads=args.threads
        )
        print(json.dumps(result), flush=True)
