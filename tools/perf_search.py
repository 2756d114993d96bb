"""Search latency on MuSiQue-100 by stage (``explain().timings_ms``), per route.

    .venv/bin/python tools/perf_search.py --store /tmp/musique-store [--backend onnx|torch]

The store is built once with the chosen embedder (1,890 passages). Each of the 100 questions
runs with route="vector" and route="hybrid" (after one warm-up pass); p50/p95 of every stage,
and of the vector channel alone (embedding + vector query) as the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

for _k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_k, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--backend", default="onnx")
    ap.add_argument("--query-cache", type=int, default=0)
    args = ap.parse_args()
    from falkmem import Memory
    from falkmem.embedding import make_embedder
    from falkmem.settings import Settings

    folder = DATA / "hipporag/musique_train_100"
    questions = [q["question"] for q in json.loads((folder / "musique_train.json").read_text())]
    emb = make_embedder(Settings(embedder_backend=args.backend, query_cache_size=args.query_cache))
    with Memory(Path(args.store), embedder=emb) as mem:
        t = mem.tenant("musique")
        if not mem._engine.store.exists("musique"):
            corpus = json.loads((folder / "musique_train_corpus.json").read_text())
            s = time.perf_counter()
            t.add_many([{"id": f"p{i}", "text": f"{p['title']}\n{p['text']}"} for i, p in enumerate(corpus)])
            print(json.dumps({"ingest_s": round(time.perf_counter() - s, 1)}))
        out: dict[str, dict[str, float]] = {}
        from falkmem.embedding.base import embed_checked
        from falkmem.retrieval.vector import vector_search

        ex, graph = mem._engine.store.executor, t.graph
        floor: list[float] = []
        for rep in range(2):  # the first pass warms up
            for q in questions:
                s = time.perf_counter()
                [v] = embed_checked(emb, [q], dimension=384)
                vector_search(ex, graph, v, k=10, fetch_k=50)
                if rep:
                    floor.append((time.perf_counter() - s) * 1000)
        out["vector channel alone (floor)"] = {
            "wall_p50": round(statistics.median(floor), 2),
            "wall_p95": round(statistics.quantiles(floor, n=20)[18], 2),
        }
        for route in ("vector", "hybrid"):
            stages: dict[str, list[float]] = {}
            for q in questions:  # warm-up pass
                t.search(q, k=10, route=route)
            for q in questions:
                s = time.perf_counter()
                ex_ = t.explain(q, k=10, route=route)
                stages.setdefault("wall", []).append((time.perf_counter() - s) * 1000)
                for name, ms in ex_.timings_ms.items():
                    stages.setdefault(name, []).append(ms)
            out[route] = {f"{name}_p50": round(statistics.median(v), 2) for name, v in stages.items()} | {
                "wall_p95": round(statistics.quantiles(stages["wall"], n=20)[18], 2)
            }
    print(json.dumps({"backend": args.backend, "query_cache": args.query_cache, "routes": out}, indent=1))


if __name__ == "__main__":
    main()
