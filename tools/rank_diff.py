"""The default search's rankings on stored dev stores, hashed per question: a refactor must leave them unchanged.

    .venv/bin/python tools/rank_diff.py snapshot OUT.json --stores DIR [--datasets beam,...] [--explain]
    .venv/bin/python tools/rank_diff.py compare A.json B.json [--show 5]

``snapshot`` opens each dataset's store ``DIR/<dataset>`` (already ingested, e.g. by
``python -m benchmarks run --path DIR/<dataset>``; nothing is written) and asks every question as
the benchmark harness asks the default system (``benchmarks/runner.py``: the library's embedder
without its query cache, no reranker, ``search(text, k=10, now=q.now, route="auto")``). Per
question it records the ranked ids, the route and each hit's relevance (rounded to 1e-6) and,
with ``--explain``, ``explain()``'s fused list and every stage's contributions (times left out);
it writes their hash, and the records in a ``.jsonl`` beside the snapshot so ``compare`` can
show what changed. ``compare`` reports per dataset and tenant group how many questions differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

DATASETS = ("beam", "longmemeval", "musique", "musique200", "realtalk")
K = 10


def _explained(handle: Any, text: str, now: Any) -> dict[str, Any]:
    ex = handle.explain(text, k=K, now=now)
    return {
        "fused": [[i, round(s, 6)] for i, s in ex.fused],
        "stages": [
            [
                s.name,
                s.kind,
                s.ran,
                s.candidates,
                s.note,
                sorted((i, round(v, 6)) for i, v in s.added.items()),
            ]
            for s in ex.stages
        ],
    }


def _hash(rec: object) -> str:
    return hashlib.sha1(json.dumps(rec, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


def snapshot(out: Path, stores: Path, names: list[str], explain: bool) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from benchmarks.datasets import load
    from benchmarks.runner import make_embedder
    from falkmem import Memory

    embedder = make_embedder("minilm")
    hashes: dict[str, dict[str, str]] = {}
    with out.with_suffix(".jsonl").open("w", encoding="utf-8") as full:
        for name in names:
            start = time.perf_counter()
            ds = load(name)
            per = hashes.setdefault(name, {})
            mem = Memory(stores / name, embedder=embedder, reranker="none")
            try:
                for data in ds.tenants:
                    if not mem.has_tenant(data.tenant) or mem.tenant(data.tenant).count() != len(
                        data.memories
                    ):
                        raise SystemExit(
                            f"{name}: tenant {data.tenant} is not stored whole in {stores / name}"
                        )
                    handle = mem.tenant(data.tenant)
                    for q in data.questions:
                        r = handle.search(q.text, k=K, now=q.now, route="auto")
                        rec: dict[str, Any] = {
                            "ids": list(r.ids),
                            "route": r.route,
                            "relevance": [
                                None if h.relevance is None else round(h.relevance, 6) for h in r.hits
                            ],
                        }
                        ident = f"{data.group}/{data.tenant}/{q.id}"
                        per[ident] = _hash(rec)
                        if explain:
                            rec["explain"] = _explained(handle, q.text, q.now)
                            per[ident + "#explain"] = _hash(rec["explain"])
                        full.write(
                            json.dumps({"dataset": name, "id": ident, **rec}, ensure_ascii=False) + "\n"
                        )
            finally:
                mem.close()
            print(f"{name}: {len(per)} questions, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    out.write_text(json.dumps(hashes, indent=0, sort_keys=True), encoding="utf-8")


def _full(path: Path, wanted: set[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    jsonl = path.with_suffix(".jsonl")
    if not jsonl.exists() or not wanted:
        return out
    with jsonl.open(encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            key = f"{rec['dataset']}:{rec['id']}"
            if key in wanted:
                out[key] = rec
    return out


def compare(a: Path, b: Path, show: int) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    total, shown = 0, []
    for name in sorted(set(left) | set(right)):
        x, y = left.get(name, {}), right.get(name, {})
        groups: dict[str, list[int]] = {}
        for i in sorted(set(x) | set(y)):
            kind = " explain()" if i.endswith("#explain") else ""
            g = groups.setdefault(i.split("/", 1)[0] + kind, [0, 0])
            g[1] += 1
            if x.get(i) != y.get(i):
                g[0] += 1
                total += 1
                key = f"{name}:{i.removesuffix('#explain')}"
                if len(shown) < show and key not in shown:
                    shown.append(key)
        for group, (changed, n) in sorted(groups.items()):
            print(f"{name} / {group}: {changed} of {n} questions changed")
    before, after = _full(a, set(shown)), _full(b, set(shown))
    for key in shown:
        old, new = before.get(key, {}), after.get(key, {})
        print(f"\n== {key}")
        for part in ("ids", "route", "relevance"):
            if old.get(part) != new.get(part):
                print(f"  {part}: {old.get(part)}\n  {' ' * len(part)}→ {new.get(part)}")
        if old.get("explain") != new.get("explain"):
            print("  explain() differs")
    print(f"total: {total} differ")
    return 1 if total else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out", type=Path)
    s.add_argument("--stores", type=Path, required=True, help="folder of one store per dataset")
    s.add_argument("--datasets", default=",".join(DATASETS))
    s.add_argument("--explain", action="store_true", help="also hash explain()'s fused list and stages")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.out, args.stores, [n for n in args.datasets.split(",") if n], args.explain)
    else:
        sys.exit(compare(args.a, args.b, args.show))


if __name__ == "__main__":
    main()
