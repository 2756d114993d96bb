"""``python -m benchmarks.latency``: one system's p50 against another's, repeated and interleaved.

A harness run asks each question once per system, so on a small set (LongMemEval dev: 48
questions) its p50 moves by a fifth between two runs on the same quiet machine, and a change
of a millisecond or two is lost in it. This asks every question of a stored dataset ``--reps``
times through two systems, interleaved question by question on the same store, the query cache
off, and prints p50 / p95 of each, their ratio and the p50 of the per-question difference
(each question's median over its repetitions, the second system's minus the first's). The
store is one a ``python -m benchmarks run --path`` built.

* By default the two are the vector channel alone (no leaning: the harness's ``vector-only``)
  and the default search, ``timings_ms.total`` of each.
* ``--vs KEY=VALUE`` (repeatable): the default against the default with those settings (what a
  part of the search costs: ``--vs graph.walk_depth=0`` takes the relational walk out).
* ``--context BUDGET``: ``search(k=context_candidates)`` (more above 800 tokens: the hits the context
  reads, ``context.items.candidates_for``) against ``context(budget_tokens=BUDGET)``
  on the same candidates, timed around each call (what packing adds to the search), and
  ``context()``'s own ``timings_ms["pack"]`` (the same cost timed inside the call, free of the
  spread of two searches). A repeated
  question finds its candidates' analyses cached; ``--cold`` empties the packer's caches before
  each ``context()``, as for a question whose candidates the process has not read yet.

    python -m benchmarks.latency --dataset longmemeval --path STORE --reps 5
    python -m benchmarks.latency --dataset musique --path STORE --vs graph.walk_depth=0
    python -m benchmarks.latency --dataset musique --path STORE --context 300 --reps 3 --cold
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _pct(xs: Sequence[float], p: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _override(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it parses (``0``, ``true``, ``0.5``), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--vs {text!r}: expected KEY=VALUE, e.g. graph.walk_depth=0")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """Milliseconds the call took, and what it returned."""
    t = time.perf_counter()
    got = call()
    return (time.perf_counter() - t) * 1000, got


def forget_packed() -> None:
    """Empty the packer's caches (memory analyses, the default counter's line counts): the next
    pack reads every candidate for the first time."""
    from falkmem.context import select, sentences
    from falkmem.context.pack import _dedupe_key

    sentences.analyse.cache_clear()
    select._SHARED.clear()
    _dedupe_key.cache_clear()


def _pair(a: Any, b: Any, q: Any, *, context: int | None, n_ctx: int, vs: bool, cold: bool = False,
          packs: list[float] | None = None) -> tuple[float, float]:  # fmt: skip
    """One question through both systems (tenant handles ``a`` and ``b``): their timings.
    ``packs``: gets each ``context()``'s own ``timings_ms["pack"]``."""
    if context is not None:
        if cold:
            forget_packed()
        searched, _ = _timed(lambda: b.search(q.text, k=n_ctx, now=q.now))
        packed, got = _timed(lambda: b.context(q.text, budget_tokens=context, now=q.now))
        if packs is not None:
            packs.append(got.timings_ms["pack"])
        return searched, packed
    if vs:
        return (a.search(q.text, k=10, now=q.now).timings_ms["total"],
                b.search(q.text, k=10, now=q.now).timings_ms["total"])  # fmt: skip
    return (a.search(q.text, k=10, route="vector", channels={"vector"}, now=q.now).timings_ms["total"],
            b.search(q.text, k=10, now=q.now).timings_ms["total"])  # fmt: skip


def measure(
    dataset: str,
    path: Path,
    *,
    reps: int,
    warm: int = 2,
    vs: dict[str, Any] | None = None,
    context: int | None = None,
    tenants: int | None = None,
    cold: bool = False,
    packs: list[float] | None = None,
) -> tuple[dict[str, list[float]], list[float]]:
    """The timings of every call by system (the first system first), and each question's
    difference of medians (second minus first). ``packs`` (with ``context``): gets each
    measured ``context()``'s own packing time (``timings_ms["pack"]``)."""
    from falkmem import Memory
    from falkmem.context.items import candidates_for

    from . import datasets
    from .runner import make_embedder
    from .systems import INSTANCES

    ds = datasets.load(dataset, tenants=tenants)
    embedder = make_embedder("minilm")
    if context is not None:
        names = ("search(k=context_candidates)", f"context({context})")
        first_opts: dict[str, Any] = {}
    elif vs:
        names = ("default", "default with " + ", ".join(f"{k}={v}" for k, v in vs.items()))
        first_opts = {}
    else:
        names = ("vector-only", "default")
        first_opts = dict(INSTANCES["raw"])
    second_opts = dict(vs or {})
    lat: dict[str, list[float]] = {names[0]: [], names[1]: []}
    diffs: list[float] = []
    with (
        Memory(path, embedder=embedder, query_cache_size=0, **first_opts) as one,
        Memory(path, embedder=embedder, query_cache_size=0, **second_opts) as two,
    ):
        n_ctx = two.settings.context_candidates
        if context is not None:  # the hits context(B) reads: more above 800 tokens
            n_ctx = candidates_for(context, n_ctx)
        for data in ds.tenants:
            if not two.has_tenant(data.tenant):
                raise SystemExit(f"error: {path} holds no tenant {data.tenant!r}: build it with "
                                 f"`python -m benchmarks run --dataset {dataset} --path {path}`")  # fmt: skip
            a, b = one.tenant(data.tenant), two.tenant(data.tenant)

            for q in data.questions[:warm]:
                _pair(a, b, q, context=context, n_ctx=n_ctx, vs=bool(vs), cold=cold)
            per: dict[str, list[tuple[float, float]]] = {q.id: [] for q in data.questions}
            for _ in range(reps):
                for q in data.questions:
                    x, y = _pair(a, b, q, context=context, n_ctx=n_ctx, vs=bool(vs), cold=cold, packs=packs)
                    lat[names[0]].append(x)
                    lat[names[1]].append(y)
                    per[q.id].append((x, y))
            for got in per.values():
                diffs.append(statistics.median(y for _, y in got) - statistics.median(x for x, _ in got))
    return lat, diffs


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.latency", description=__doc__.split("\n\n")[0])
    p.add_argument("--dataset", required=True)
    p.add_argument("--path", type=Path, required=True, help="the store a `run --path` built")
    p.add_argument("--reps", type=int, default=5, help="times each question is asked per system")
    p.add_argument("--tenants", type=int, default=None, help="keep the first N tenants (musique: 1 = rules)")
    p.add_argument("--vs", action="append", default=[], metavar="KEY=VALUE",
                   help="compare the default with the default under these settings")  # fmt: skip
    p.add_argument("--context", type=int, default=None, metavar="BUDGET",
                   help="compare search(k=context_candidates) with context(budget_tokens=BUDGET)")  # fmt: skip
    p.add_argument("--cold", action="store_true",
                   help="with --context: empty the packer's caches before each context() (first reads)")  # fmt: skip
    args = p.parse_args(argv)
    if args.reps < 1:
        p.error("--reps must be at least 1")
    if args.context is not None and (args.vs or args.context < 1):
        p.error("--context takes a positive budget and no --vs")
    try:
        vs = dict(_override(v) for v in args.vs)
    except ValueError as exc:
        p.error(str(exc))
    packs: list[float] = []
    lat, diffs = measure(args.dataset, args.path, reps=args.reps, vs=vs, context=args.context, tenants=args.tenants,
                        cold=args.cold, packs=packs)  # fmt: skip
    (n1, x), (n2, y) = lat.items()
    x50, y50 = statistics.median(x), statistics.median(y)
    print(f"{args.dataset}: {len(y)} calls each (reps {args.reps}, interleaved, query cache off)")
    print("| system | p50 ms | p95 ms |\n|---|---|---|")
    print(f"| {n1} | {x50:.1f} | {_pct(x, 95):.1f} |\n| {n2} | {y50:.1f} | {_pct(y, 95):.1f} |")
    print(f"p50 ratio {n2} / {n1}: {y50 / x50:.2f}; p50 difference {y50 - x50:+.1f} ms; "
          f"per question (median of its repetitions), p50 of the difference {statistics.median(diffs):+.1f} ms "
          f"over {len(diffs)} questions")  # fmt: skip
    if packs:  # what context() adds, timed inside it: free of the two searches' own spread
        print(f"context()'s own packing (timings_ms['pack']): p50 {statistics.median(packs):.1f} ms, "
              f"p95 {_pct(packs, 95):.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
