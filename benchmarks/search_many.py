"""``search_many`` of Q queries against Q ``search`` calls, on one embedded store with MiniLM.

    python -m benchmarks.search_many --size 2000 --queries 100 --repeats 3

Prints one JSON object: the median wall time of each way (and the per-stage split of one
search), and the speed-up. ``search_many`` embeds all its queries in one embedder call; the
channels then run per query exactly as ``search`` runs them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from falkmem import Memory

PEOPLE = ["Priya", "Marcus", "Dana", "Omar", "Lena", "Kenji", "Sofia", "Ravi", "Ines", "Tom"]
TOPICS = [
    "the Helios launch budget", "a flight to Lisbon", "the quarterly hiring plan", "a database outage",
    "the new espresso machine", "the customer churn report", "a security audit", "the office move",
    "the Atlas team roadmap", "a late invoice from a supplier", "the marketing offsite", "a broken laptop",
]  # fmt: skip
VERBS = ["asked about", "wrote a note on", "complained about", "approved", "postponed", "summarised"]


def _sentence(rnd: random.Random) -> str:
    return f"{rnd.choice(PEOPLE)} {rnd.choice(VERBS)} {rnd.choice(TOPICS)} on day {rnd.randint(1, 300)}."


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2000, help="memories in the tenant")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--route", default="auto", choices=["auto", "vector", "hybrid"])
    args = ap.parse_args()
    rnd = random.Random(1)
    with tempfile.TemporaryDirectory() as d, Memory(d) as mem:
        t = mem.tenant("bench")
        t.add_many([{"text": _sentence(rnd)} for _ in range(args.size)], batch_size=250)
        queries = [
            f"What did {rnd.choice(PEOPLE)} say about {rnd.choice(TOPICS)}?" for _ in range(args.queries)
        ]
        t.search_many(queries[:5], k=args.k)  # warm: model, caches, connections
        for q in queries[:5]:
            t.search(q, k=args.k)
        singles: list[float] = []
        batched: list[float] = []
        stages: dict[str, list[float]] = {}
        for _ in range(args.repeats):
            start = time.perf_counter()
            for q in queries:
                r = t.search(q, k=args.k, route=args.route)  # type: ignore[arg-type]
                for name, ms in r.timings_ms.items():
                    stages.setdefault(name, []).append(ms)
            singles.append(time.perf_counter() - start)
            start = time.perf_counter()
            many = t.search_many(queries, k=args.k, route=args.route)  # type: ignore[arg-type]
            batched.append(time.perf_counter() - start)
            assert len(many) == len(queries)
        single_s, many_s = statistics.median(singles), statistics.median(batched)
        print(
            json.dumps(
                {
                    "size": args.size,
                    "queries": args.queries,
                    "k": args.k,
                    "route": args.route,
                    "repeats": args.repeats,
                    "search_calls_s": round(single_s, 3),
                    "search_many_s": round(many_s, 3),
                    "speedup": round(single_s / many_s, 2),
                    "per_search_median_ms": {n: round(statistics.median(v), 2) for n, v in stages.items()},
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
