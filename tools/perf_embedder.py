"""Embedder backends on MuSiQue-100 (1,890 passages, 100 questions): speed and recall.

    .venv/bin/python tools/perf_embedder.py [--backends torch,onnx,onnx-int8] [--n 1890]

Per backend: passages/s embedding the corpus in batches of 64; single-query latency p50
(one question per call); R@5 of the vector channel alone (exact cosine top-5 over the corpus
against each question's gold supporting passages); overlap of its top-10 with torch's; the
cosine between its passage vectors and torch's (min / mean).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

for _k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_k, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    import numpy as np

    from falkmem.embedding.minilm import minilm

    ap = argparse.ArgumentParser()
    ap.add_argument("--backends", default="torch,onnx,onnx-int8")
    ap.add_argument("--n", type=int, default=1890)
    args = ap.parse_args()
    folder = DATA / "hipporag/musique_train_100"
    corpus = json.loads((folder / "musique_train_corpus.json").read_text())[: args.n]
    texts = [f"{p['title']}\n{p['text']}" for p in corpus]
    index = {(p["title"], p["text"]): i for i, p in enumerate(corpus)}
    questions = json.loads((folder / "musique_train.json").read_text())
    gold = [
        {index[(p["title"], p["paragraph_text"] if "paragraph_text" in p else p["text"])]
         for p in q["paragraphs"] if p.get("is_supporting") and (p["title"], p.get("paragraph_text", p.get("text"))) in index}
        for q in questions
    ]  # fmt: skip
    cache = Path(tempfile.mkdtemp(prefix="falkmem-onnx-"))
    results: dict[str, dict[str, float]] = {}
    top10: dict[str, list[list[int]]] = {}
    vectors: dict[str, np.ndarray] = {}
    for backend in args.backends.split(","):
        emb = minilm(backend, cache_dir=cache)
        t = time.perf_counter()
        emb.embed(["warm up"])
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        doc = np.array([v for i in range(0, len(texts), 64) for v in emb.embed(texts[i : i + 64])])
        rate = len(texts) / (time.perf_counter() - t)
        lat = []
        qv = []
        for q in questions:
            t = time.perf_counter()
            [v] = emb.embed([q["question"]])
            lat.append((time.perf_counter() - t) * 1000)
            qv.append(v)
        sims = np.array(qv) @ doc.T
        order = np.argsort(-sims, axis=1)
        top10[backend] = [list(map(int, row[:10])) for row in order]
        vectors[backend] = doc
        recall5 = statistics.mean(
            len(set(row[:5]) & g) / len(g) for row, g in zip(top10[backend], gold, strict=True) if g
        )
        results[backend] = {
            "first_call_s": round(load_s, 1), "passages_per_s": round(rate, 1),
            "query_p50_ms": round(statistics.median(lat), 2), "R@5": round(100 * recall5, 2),
        }  # fmt: skip
    if "torch" in top10:
        for backend in results:
            overlap = statistics.mean(
                len(set(a) & set(b)) / 10 for a, b in zip(top10[backend], top10["torch"], strict=True)
            )
            cos = (vectors[backend] * vectors["torch"]).sum(1)
            results[backend] |= {"top10_overlap_with_torch": round(overlap, 3),
                                 "cos_to_torch_min": round(float(cos.min()), 5),
                                 "cos_to_torch_mean": round(float(cos.mean()), 5)}  # fmt: skip
    print(json.dumps({"passages": len(texts), "questions": len(questions), "backends": results}, indent=1))


if __name__ == "__main__":
    main()
