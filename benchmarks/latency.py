"""``python -m benchmarks.latency``: the default's p50 against the vector channel alone, repeated.

A harness run asks each question once per system, so on a small set (LongMemEval dev: 48
questions) its p50 moves by a fifth between two runs on the same quiet machine. This asks every
question of a stored dataset ``--reps`` times through the vector channel alone (no leaning:
the harness's ``vector-only``) and through the default, interleaved question by question on
the same store, the query cache off, and prints p50 / p95 of ``timings_ms.total`` and their
ratio. The store is one a ``python -m benchmarks run --path`` built.

    python -m benchmarks.latency --dataset longmemeval --path STORE --reps 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _pct(xs: Sequence[float], p: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def measure(dataset: str, path: Path, *, reps: int, warm: int = 2) -> dict[str, list[float]]:
    """``timings_ms.total`` of every search, by system (``vector-only``, ``default``)."""
    from falkmem import Memory

    from . import datasets
    from .runner import make_embedder
    from .systems import INSTANCES

    ds = datasets.load(dataset)
    embedder = make_embedder("minilm")
    lat: dict[str, list[float]] = {"vector-only": [], "default": []}
    with (
        Memory(path, embedder=embedder, query_cache_size=0, **INSTANCES["raw"]) as raw,
        Memory(path, embedder=embedder, query_cache_size=0) as mem,
    ):
        for data in ds.tenants:
            if not mem.has_tenant(data.tenant):
                raise SystemExit(f"error: {path} holds no tenant {data.tenant!r}: build it with "
                                 f"`python -m benchmarks run --dataset {dataset} --path {path}`")  # fmt: skip
            vec, dflt = raw.tenant(data.tenant), mem.tenant(data.tenant)
            for q in data.questions[:warm]:
                vec.search(q.text, k=10, route="vector", channels={"vector"}, now=q.now)
                dflt.search(q.text, k=10, now=q.now)
            for _ in range(reps):
                for q in data.questions:
                    r = vec.search(q.text, k=10, route="vector", channels={"vector"}, now=q.now)
                    lat["vector-only"].append(r.timings_ms["total"])
                    r = dflt.search(q.text, k=10, now=q.now)
                    lat["default"].append(r.timings_ms["total"])
    return lat


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.latency", description=__doc__.split("\n\n")[0])
    p.add_argument("--dataset", required=True)
    p.add_argument("--path", type=Path, required=True, help="the store a `run --path` built")
    p.add_argument("--reps", type=int, default=5, help="times each question is asked per system")
    args = p.parse_args(argv)
    if args.reps < 1:
        p.error("--reps must be at least 1")
    lat = measure(args.dataset, args.path, reps=args.reps)
    v, d = lat["vector-only"], lat["default"]
    v50, d50 = statistics.median(v), statistics.median(d)
    print(f"{args.dataset}: {len(d)} searches each (reps {args.reps}, interleaved, query cache off)")
    print("| system | p50 ms | p95 ms |\n|---|---|---|")
    print(f"| vector-only | {v50:.1f} | {_pct(v, 95):.1f} |\n| default | {d50:.1f} | {_pct(d, 95):.1f} |")
    print(f"default p50 / vector-only p50: {d50 / v50:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
