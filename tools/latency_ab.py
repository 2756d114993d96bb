"""Default ``search(k=10)`` p50 of two checkouts, paired question by question.

    .venv/bin/python tools/latency_ab.py --a OLD_TREE:OLD_STORES --b NEW_TREE:NEW_STORES \\
        [--datasets realtalk,musique,...] [--reps 2] [--out X.json]

Two runs of one code on this 2-core machine differ by 2-6 ms p50 (the machine's speed drifts
over minutes), more than most changes cost. So each tree gets its own worker process on its own
copy of a stored dev store (``STORES/<dataset>``, built by ``python -m benchmarks run --path``),
and the driver asks both the same question back to back, alternating which goes first; each
worker times only ``Tenant.search`` (the harness's embedder, no query cache, no reranker). It
reports both p50s, their difference and the median of the paired differences, each with its
bootstrap 95 % CI (``benchmarks/stats.py::bootstrap_ci``). Questions come from the B tree's
loaders, ``now`` included.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.stats import bootstrap_ci

WORKER = """
import json, os, sys, time
from datetime import datetime
from pathlib import Path
from benchmarks.runner import make_embedder
from falkmem import Memory
qs = json.loads(Path(sys.argv[2]).read_text())
mem = Memory(Path(sys.argv[1]), embedder=make_embedder("minilm"), reranker="none")
hs = {}
def run(i):
    t, text, now = qs[i]
    h = hs.setdefault(t, mem.tenant(t))
    a = time.perf_counter()
    h.search(text, k=10, now=datetime.fromisoformat(now) if now else None)
    return (time.perf_counter() - a) * 1000
for i in range(min(5, len(qs))):
    run(i)
print("ready", flush=True)
for line in sys.stdin:
    print(f"{run(int(line)):.4f}", flush=True)
mem.close()
"""

DUMP = """
import json, sys
from benchmarks.datasets import load
ds = load(sys.argv[1])
print(json.dumps([[t.tenant, q.text, (q.now if isinstance(q.now, str) else q.now.isoformat()) if q.now else None]
                  for t in ds.tenants for q in t.questions]))
"""


def _env(tree: str) -> dict[str, str]:
    return dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=tree)


def _start(tree: str, store: Path, questions: Path) -> subprocess.Popen[str]:
    p = subprocess.Popen([sys.executable, "-c", WORKER, str(store), str(questions)], cwd=tree, env=_env(tree),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    assert p.stdout is not None and p.stdout.readline().strip() == "ready", f"worker in {tree} did not start"
    return p


def _ask(p: subprocess.Popen[str], i: int) -> float:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(f"{i}\n")
    p.stdin.flush()
    return float(p.stdout.readline())


def measure(a: tuple[str, Path], b: tuple[str, Path], dataset: str, reps: int) -> dict[str, Any]:
    """One dataset: both workers, every question ``reps`` times, alternating which goes first."""
    out = subprocess.run([sys.executable, "-c", DUMP, dataset], cwd=b[0], env=_env(b[0]), check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(out)
    questions = Path(f.name)
    n = len(json.loads(out))
    pa, pb = _start(a[0], a[1] / dataset, questions), _start(b[0], b[1] / dataset, questions)
    ta: list[float] = []
    tb: list[float] = []
    try:
        for rep in range(reps):
            for i in range(n):
                if (i + rep) % 2:
                    ta.append(_ask(pa, i))
                    tb.append(_ask(pb, i))
                else:
                    tb.append(_ask(pb, i))
                    ta.append(_ask(pa, i))
    finally:
        for p in (pa, pb):
            if p.stdin is not None:
                p.stdin.close()
            p.wait()
        questions.unlink()
    pairs = np.column_stack([ta, tb])
    diffs = pairs[:, 1] - pairs[:, 0]
    p50_delta = bootstrap_ci(
        pairs, statistic=lambda r: np.median(r[..., 1], axis=1) - np.median(r[..., 0], axis=1)
    )
    paired = bootstrap_ci(diffs, statistic=lambda r: np.median(r, axis=1))
    return {
        "n": len(diffs),
        "a_p50": round(statistics.median(ta), 2),
        "b_p50": round(statistics.median(tb), 2),
        "p50_delta": round(statistics.median(tb) - statistics.median(ta), 2),
        "p50_delta_ci": [round(v, 2) for v in p50_delta],
        "paired_median": round(float(np.median(diffs)), 2),
        "paired_median_ci": [round(v, 2) for v in paired],
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="TREE:STORES of the baseline")
    ap.add_argument("--b", required=True, help="TREE:STORES of the change")
    ap.add_argument("--datasets", default="realtalk,musique,musique200,beam,longmemeval")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    a, b = ((t, Path(s)) for t, s in (x.split(":", 1) for x in (args.a, args.b)))
    result = {}
    for d in args.datasets.split(","):
        result[d] = measure(a, b, d, args.reps)
        print(d, result[d], flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
