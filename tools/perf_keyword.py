"""Latency of the keyword channel on the MuSiQue-100 corpus (1,890 passages), cold and warm.

    .venv/bin/python tools/perf_keyword.py --store /tmp/kwstore [--save before.json | --compare before.json]

The store is built once (hash embedder: the keyword channel does not read vectors). Every
question of musique_train.json runs through ``keyword_search`` (k=10, candidates=100):
"cold" clears the per-tenant term statistics first (code before schema 14 cached them in the
process; since, they are stored in the tenant and nothing is cleared) and, on code before schema
11, the per-memory stem counts; "warm" runs the same questions again with both cached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--save")
    ap.add_argument("--compare")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from falkmem import Memory
    from falkmem.config import KeywordConfig
    from falkmem.retrieval import keyword as kw
    from falkmem.testing import HashEmbedder

    folder = DATA / "hipporag/musique_train_100"
    questions = [q["question"] for q in json.loads((folder / "musique_train.json").read_text())]
    with Memory(Path(args.store), embedder=HashEmbedder()) as mem:
        t = mem.tenant("musique")
        if t._engine.store.exists("musique") is False or t.count() == 0:
            corpus = json.loads((folder / "musique_train_corpus.json").read_text())
            t.add_many([{"id": f"p{i}", "text": f"{p['title']}\n{p['text']}"} for i, p in enumerate(corpus)])
        ex, graph = t._engine.store.executor, t.graph
        CFG = KeywordConfig(candidates=100, max_df=None, fetch_max_df=None, fetch_pairs=0)
        reset = getattr(kw, "clear_term_stats", None)  # absent before the cache existed
        try:
            from falkmem.keyword.stem import document_stems as doc_cache
        except ImportError:
            doc_cache = None
        results: dict[str, list[list[object]]] = {}
        cold: list[float] = []
        warm: list[float] = []
        for _ in range(args.repeat):
            for q in questions:
                if reset is not None:
                    reset()
                if doc_cache is not None:
                    doc_cache.cache_clear()
                s = time.perf_counter()
                hits = kw.keyword_search(ex, graph, q, CFG, k=10).hits
                cold.append((time.perf_counter() - s) * 1000)
                results[q] = [[str(r["id"]), round(sc, 6)] for r, sc in hits]
            for q in questions:
                s = time.perf_counter()
                kw.keyword_search(ex, graph, q, CFG, k=10)
                warm.append((time.perf_counter() - s) * 1000)

    def pct(xs: list[float], p: float) -> float:
        return round(statistics.quantiles(xs, n=100)[int(p) - 1], 2)

    print(
        json.dumps(
            {
                "queries": len(questions),
                "repeat": args.repeat,
                "cold_p50_ms": pct(cold, 50),
                "cold_p95_ms": pct(cold, 95),
                "warm_p50_ms": pct(warm, 50),
                "warm_p95_ms": pct(warm, 95),
            }
        )
    )
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=0))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        same_ids = sum(1 for q in questions if [i for i, _ in before[q]] == [i for i, _ in results[q]])
        print(json.dumps({"identical_ranking": f"{same_ids}/{len(questions)}"}))
        for q in questions:
            if [i for i, _ in before[q]] != [i for i, _ in results[q]]:
                print("DIFF", q, before[q][:5], results[q][:5])


if __name__ == "__main__":
    main()
