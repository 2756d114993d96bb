"""Search latency per route against the vector-channel floor, on MuSiQue-100 or LongMemEval dev.

    .venv/bin/python tools/perf_search.py --store DIR --data musique [--tenant musique-rules]
    .venv/bin/python tools/perf_search.py --store DIR --data lme

The store is a benchmark store (``python -m benchmarks run ... --path DIR``); a MuSiQue tenant
that is missing is built (1,890 passages). The query-embedding cache is off (every question
is embedded). Each question runs through every system in turn, ``--reps`` times after a
warm-up pass, so machine noise falls on all systems alike:

* ``floor: vector channel alone`` — ``search(route="vector", channels={"vector"})``: the
  question embedded and one vector query, through the SDK. Measured twice, with the question
  embedded on one ONNX thread (the default, ``embedder_query_threads=1``) and on every core
  (``embedder_query_threads=0``); the ratios use the faster of the two.
* ``route="vector"`` (vector + keyword) and ``route="hybrid"`` (+ graph), and ``auto``.

The every-core floor runs in a block of its own in each pass (see the loop); the other
systems take turns question by question.

Per system: p50 / p95 wall time around the SDK call, and the p50 of every stage of
``timings_ms`` (stages overlap: the keyword channel runs beside the embedding).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

for _k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_k, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))

SYSTEMS: dict[str, dict[str, Any]] = {
    "floor (question on 1 thread)": {"route": "vector", "channels": {"vector"}},
    "floor (question on every core)": {"route": "vector", "channels": {"vector"}},
    'route="vector"': {"route": "vector"},
    'route="hybrid"': {"route": "hybrid"},
    "auto (default)": {},
}


def _questions(data: str, tenant: str | None) -> list[tuple[str, str]]:
    """(tenant, question) pairs."""
    if data == "musique":
        folder = DATA / "hipporag/musique_train_100"
        qs = json.loads((folder / "musique_train.json").read_text())
        return [(tenant or "musique-rules", q["question"]) for q in qs]
    out = []
    for f in sorted((DATA / "longmemeval_s_dev").glob("*.json")):
        d = json.loads(f.read_text())
        out.append((f"lme-{d['question_id']}", str(d["question"])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--data", choices=["musique", "lme"], default="musique")
    ap.add_argument("--tenant", help="MuSiQue: the tenant to query (default musique-rules)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval for this process (Python's default: 0.005 s)",
    )
    ap.add_argument(
        "--route-threads",
        type=int,
        default=1,
        help="embedder_query_threads for the routes (1: the default; 0: every core)",
    )
    args = ap.parse_args()
    if args.switch_interval is not None:
        import sys

        sys.setswitchinterval(args.switch_interval)
    from falkmem import Memory
    from falkmem.embedding import make_embedder
    from falkmem.settings import Settings

    pairs = _questions(args.data, args.tenant)
    if "embedder_query_threads" in Settings.model_fields:
        one = make_embedder(Settings(query_cache_size=0, embedder_query_threads=1))
        routes = (
            one
            if args.route_threads == 1
            else make_embedder(Settings(query_cache_size=0, embedder_query_threads=args.route_threads))
        )
        every = make_embedder(Settings(query_cache_size=0, embedder_query_threads=0))
    else:  # code from before the setting (for a before/after): one session on every core
        one = routes = every = make_embedder(Settings(query_cache_size=0))
    with Memory(Path(args.store), embedder=one, query_cache_size=0) as mem:
        engine = mem._engine
        if args.data == "musique" and not engine.store.exists(pairs[0][0]):
            corpus = json.loads((DATA / "hipporag/musique_train_100/musique_train_corpus.json").read_text())
            s = time.perf_counter()
            mem.tenant(pairs[0][0]).add_many(
                [{"id": f"p{i}", "text": f"{p['title']}\n{p['text']}"} for i, p in enumerate(corpus)]
            )
            print(json.dumps({"ingest_s": round(time.perf_counter() - s, 1)}))
        walls: dict[str, list[float]] = {name: [] for name in SYSTEMS}
        stages: dict[str, dict[str, list[float]]] = {name: {} for name in SYSTEMS}
        for rep in range(args.reps + 1):  # the first pass warms up (models, statistics, caches)
            # The every-core floor runs in a block of its own: ONNX Runtime's pool threads spin
            # for a while after each run, and would take the cores from the next system's call.
            for block in (["floor (question on every core)"], [n for n in SYSTEMS if "every core" not in n]):
                for tenant_id, q in pairs:
                    t = mem.tenant(tenant_id)
                    for name in block:
                        engine.embedder = (
                            every if "every core" in name else one if "1 thread" in name else routes
                        )
                        s = time.perf_counter()
                        r = t.search(q, k=10, **SYSTEMS[name])
                        ms = (time.perf_counter() - s) * 1000
                        if rep:
                            walls[name].append(ms)
                            for stage, v in r.timings_ms.items():
                                stages[name].setdefault(stage, []).append(v)
        engine.embedder = one
    floor = min(statistics.median(walls[n]) for n in SYSTEMS if n.startswith("floor"))
    out: dict[str, Any] = {
        "data": args.data,
        "questions": len(pairs),
        "reps": args.reps,
        "route_threads": args.route_threads,
        "systems": {},
    }
    for name, v in walls.items():
        p50 = statistics.median(v)
        out["systems"][name] = {
            "p50_ms": round(p50, 2),
            "p95_ms": round(statistics.quantiles(v, n=20)[18], 2),
            "ratio_to_floor": round(p50 / floor, 2),
            "stages_p50_ms": {k: round(statistics.median(x), 2) for k, x in stages[name].items()},
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
