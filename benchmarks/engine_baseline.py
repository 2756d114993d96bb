"""Core-engine measurements (issue 2): ingest vs the embedder alone, vector search vs the raw
index call, vector-route recall@10 vs exact brute force, and store open time.

    python -m benchmarks.engine_baseline --n 10000 --queries 200 --out benchmarks/results/engine.json
    python -m benchmarks.engine_baseline --open-only --n 100000     # open time with random vectors
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

FIRST = [
    "Priya",
    "Marcus",
    "Dana",
    "Ann",
    "Raj",
    "Sue",
    "Tom",
    "Lena",
    "Ivan",
    "Mia",
    "Omar",
    "Zoe",
    "Ben",
    "Carla",
    "Hiro",
]
LAST = [
    "Chandran",
    "Webb",
    "Lee",
    "Patel",
    "Kim",
    "Baker",
    "Ortiz",
    "Petrov",
    "Wong",
    "Haddad",
    "Clark",
    "Stone",
    "Sato",
]
THINGS = [
    "invoice",
    "flight",
    "budget review",
    "design doc",
    "offsite",
    "hiring plan",
    "security audit",
    "customer call",
    "migration",
    "launch",
    "dentist appointment",
    "gym class",
    "book club",
    "vendor contract",
]
PLACES = ["Tokyo", "Lisbon", "Bangalore", "Boston", "Berlin", "Nairobi", "Lima", "Oslo", "Seoul", "Austin"]
VERBS = [
    "scheduled",
    "moved",
    "approved",
    "cancelled",
    "discussed",
    "reviewed",
    "booked",
    "postponed",
    "shared",
    "signed",
]
TIMES = [
    "on Monday",
    "next week",
    "in March",
    "at 10:05",
    "tomorrow",
    "last Friday",
    "before the launch",
    "in Q3",
]


def texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        p = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
        out.append(
            f"{p} {rnd.choice(VERBS)} the {rnd.choice(THINGS)} in {rnd.choice(PLACES)} {rnd.choice(TIMES)}"
            f" (note {i}, ref {rnd.randrange(10_000, 99_999)})."
        )
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def baseline(n: int, n_queries: int, path: Path) -> dict[str, Any]:
    import numpy as np

    from falkmem import Memory
    from falkmem.embedding.minilm import minilm
    from falkmem.storage.cypher import query

    emb = minilm()
    corpus = texts(n, seed=7)
    queries = texts(n_queries, seed=99)
    emb.embed(corpus[:32])  # load the model before timing
    t = time.perf_counter()
    vectors = emb.embed(corpus)
    embed_s = time.perf_counter() - t
    out: dict[str, Any] = {"n": n, "embedder_alone_per_s": n / embed_s}
    with Memory(path, embedder=emb) as mem:
        mem.drop_tenant("bench")
        tenant = mem.tenant("bench")
        t = time.perf_counter()
        tenant.add_many([{"id": f"a{i}", "text": x} for i, x in enumerate(corpus)], batch_size=64)
        ingest_s = time.perf_counter() - t
        out["ingest_per_s"] = n / ingest_s
        out["ingest_vs_embedder"] = out["ingest_per_s"] / out["embedder_alone_per_s"]
        qvecs = emb.embed(queries)
        matrix = np.asarray(vectors, dtype=np.float32)
        ids = np.array([f"a{i}" for i in range(n)])
        g = mem._engine.store.db.select_graph(tenant.graph)
        raw = query("retrieve/vector_raw")
        raw_ms, route_ms, total_ms, recalls = [], [], [], []
        for q, qv in zip(queries, qvecs, strict=True):
            t = time.perf_counter()
            g.ro_query(raw.text, {"vector": qv, "k": 10})
            raw_ms.append((time.perf_counter() - t) * 1000)
            res = tenant.search(q, k=10, route="vector", channels={"vector"})
            route_ms.append(res.timings_ms["vector"])
            total_ms.append(res.timings_ms["total"])
            exact = set(ids[np.argsort(-(matrix @ np.asarray(qv, dtype=np.float32)))[:10]])
            recalls.append(len(exact & set(res.ids)) / 10)
        out.update(
            raw_querynodes_k10_ms={"p50": pct(raw_ms, 50), "p95": pct(raw_ms, 95)},
            vector_route_ms={"p50": pct(route_ms, 50), "p95": pct(route_ms, 95)},
            search_total_ms_incl_embedding={"p50": pct(total_ms, 50), "p95": pct(total_ms, 95)},
            recall_at_10_vs_brute_force=statistics.mean(recalls),
            queries_with_recall_below_0_5=sum(r < 0.5 for r in recalls),
        )
        mem.drop_tenant("bench")
    return out


def fill_random(n: int, path: Path) -> None:
    import numpy as np

    from falkmem import Memory
    from falkmem.testing import HashEmbedder

    rng = np.random.default_rng(42)
    centres = rng.normal(size=(200, 384))
    with Memory(path, embedder=HashEmbedder(384), extractor="none") as mem:
        t = mem.tenant("open")
        for start in range(0, n, 1000):
            c = centres[rng.integers(0, 200, size=1000)] + rng.normal(scale=0.05, size=(1000, 384))
            c /= np.linalg.norm(c, axis=1, keepdims=True)
            t.add_many(
                [{"id": f"o{start + i}", "text": f"memory {start + i}", "embedding": [float(x) for x in row]}
                 for i, row in enumerate(c)], batch_size=500,
            )  # fmt: skip


OPEN = """
import time, sys
t = time.perf_counter()
from falkmem import Memory
from falkmem.testing import HashEmbedder
with Memory(sys.argv[1], embedder=HashEmbedder(384)) as mem:
    n = mem.tenant("open").count()
    print(n, time.perf_counter() - t)
"""


def open_time(path: Path) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", OPEN, str(path)], capture_output=True, text=True, check=True)
    n, secs = proc.stdout.split()
    return {"artifacts": int(n), "open_and_first_read_s": float(secs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--open-only", action="store_true")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        result: dict[str, Any] = {}
        if not args.open_only:
            result["baseline"] = baseline(args.n, args.queries, Path(d) / "b")
        fill_random(args.n, Path(d) / "o")
        result["open"] = open_time(Path(d) / "o")
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
