"""Ingest rate of ``add_many`` against the embedder alone on the same real texts.

    .venv/bin/python tools/perf_ingest.py --data musique --n 600 [--profile out.prof]
    .venv/bin/python tools/perf_ingest.py --data lme --n 1000

``musique``: MuSiQue-100 corpus passages (title + newline + text); ``lme``: LongMemEval dev
conversation turns (each turn one memory, with its session and speaker). Data from
``$FALKMEM_DATA`` (default ``../shared/data`` next to the repository).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for _k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_k, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def musique(n: int) -> list[dict[str, Any]]:
    corpus = json.loads((DATA / "hipporag/musique_train_100/musique_train_corpus.json").read_text())
    return [
        {"id": f"p{i}", "text": f"{p['title']}\n{p['text']}", "kind": "document"}
        for i, p in enumerate(corpus)
    ][:n]


def lme(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in sorted((DATA / "longmemeval_s_dev").glob("*.json")):
        d = json.loads(f.read_text())
        for sid, session in zip(d["haystack_session_ids"], d["haystack_sessions"], strict=True):
            for j, turn in enumerate(session):
                text = str(turn.get("content") or "").strip()
                if text:
                    out.append(
                        {
                            "id": f"{f.stem}:{sid}:{j}",
                            "text": text[:32000],
                            "session": str(sid),
                            "speaker": str(turn.get("role") or "user"),
                        }
                    )
                if len(out) >= n:
                    return out
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", choices=["musique", "lme"], default="musique")
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--profile", default=None)
    ap.add_argument("--skip-floor", action="store_true")
    ap.add_argument("--embedder-backend", default=None)
    args = ap.parse_args()
    if args.embedder_backend:
        os.environ["FALKMEM_EMBEDDER_BACKEND"] = args.embedder_backend

    from falkmem import Memory
    from falkmem.embedding import make_embedder
    from falkmem.settings import Settings

    records = musique(args.n) if args.data == "musique" else lme(args.n)
    texts = [r["text"] for r in records]
    emb = make_embedder(Settings())
    emb.embed(["warm up"])

    def embed_alone() -> float:
        t = time.perf_counter()
        for i in range(0, len(texts), args.batch_size):
            emb.embed(texts[i : i + args.batch_size])
        return len(texts) / (time.perf_counter() - t)

    floors = [] if args.skip_floor else [embed_alone()]
    spent = [0.0]
    inner = emb.embed

    def timed(batch: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return inner(batch)
        finally:
            spent[0] += time.perf_counter() - t0

    emb.embed = timed  # type: ignore[method-assign]

    # Where the rest goes: extraction (rule extractor), the create query (client wall and the
    # server's own execution time: graph writes + index maintenance), the rest of Python.
    import falkordb.graph as fgraph

    from falkmem.extraction import rules

    parts = {"extract_s": 0.0, "create_wall_s": 0.0, "create_server_s": 0.0, "header_s": 0.0}
    real_extract = rules.RuleExtractor.extract
    real_query = fgraph.Graph.query
    real_header = fgraph.Graph._build_params_header

    def extract(self: Any, *a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real_extract(self, *a, **kw)
        finally:
            parts["extract_s"] += time.perf_counter() - t0

    def gquery(self: Any, q: str, *a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        out = real_query(self, q, *a, **kw)
        if "create_artifacts" in q[:40] or "CREATE (a:Artifact" in q:
            parts["create_wall_s"] += time.perf_counter() - t0
            parts["create_server_s"] += out.run_time_ms / 1000
        return out

    def header(self: Any, params: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real_header(self, params)
        finally:
            parts["header_s"] += time.perf_counter() - t0

    rules.RuleExtractor.extract = extract  # type: ignore[method-assign]
    fgraph.Graph.query = gquery  # type: ignore[method-assign]
    fgraph.Graph._build_params_header = header  # type: ignore[method-assign]
    path = Path(tempfile.mkdtemp(prefix="falkmem-perf-"))
    try:
        with Memory(path, embedder=emb) as mem:
            tenant = mem.tenant("perf")
            tenant.add("warm up", id="warm")
            prof = cProfile.Profile() if args.profile else None
            t = time.perf_counter()
            if prof:
                prof.enable()
            res = tenant.add_many(records, batch_size=args.batch_size)
            if prof:
                prof.disable()
                prof.dump_stats(args.profile)
            wall = time.perf_counter() - t
            rate = len(res.added) / wall
    finally:
        shutil.rmtree(path, ignore_errors=True)
    emb.embed = inner  # type: ignore[method-assign]
    if not args.skip_floor:
        floors.append(embed_alone())
    out = {
        "data": args.data,
        "n": len(records),
        "embedder": emb.name,
        "add_many_per_s": round(rate, 1),
        "embed_share_of_add_many_wall": round(spent[0] / wall, 2),
        "add_many_wall_s": round(wall, 1),
        "embed_s": round(spent[0], 1),
        **{k: round(v, 2) for k, v in parts.items()},
    }
    if floors:
        floor = sum(floors) / len(floors)
        out |= {"embedder_alone_per_s": [round(f, 1) for f in floors], "ratio": round(rate / floor, 2)}
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
