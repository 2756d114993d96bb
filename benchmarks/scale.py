"""``python -m benchmarks scale``: one tenant grown through the sizes asked, the cost measured at each.

The tenant grows along a fixed stream of real texts (``scale_stream.py``: the dev sets' chat
turns or passages, cycled, with supplied vectors so the embedder is out of the ingest). At each
size it measures:

* **ingest**: ``add_many`` (batches of 64: extraction + one atomic write; vectors supplied) of the
  segment since the last size, and of its last ``--slice`` memories alone (the *slice rate*:
  what one more memory costs at that size);
* **searches**: every question through every system (vector alone, keyword alone, the vector
  route, the hybrid route, the default), question by question with the systems interleaved,
  the query cache off (the keyword channel reads the tenant's stored document frequencies:
  nothing of it is cached in the process); p50/p95 of ``timings_ms.total``
  and of each stage, and recall@10 on the evidence texts stored so far;
* **memory and disk**: the server's RSS and peak RSS (``/proc``), ``used_memory``, the store's
  files, and each per memory against the raw data (text + 384 float32);
* **reopen**: close (the server stops with its last client) → open → ``count()``, the server's
  own load time from its log, and the first search after it; with ``--script-start`` also
  what a fresh process pays to open the tenant and answer one search, with the server stopped
  and with it running (attach).

The report (JSON), a markdown table and a plot (each measure against size) are written.
The machine's load average is recorded at every size: latencies are only as quiet as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from falkmem import Memory
from falkmem.retrieval.keyword import keyword_search
from falkmem.settings import Settings
from falkmem.storage.cypher import query

from . import scale_report, scale_stream
from .report import git_state, machine, now_iso, package_versions
from .runner import REPO_ROOT, make_embedder

UNBOUNDED: dict[str, Any] = {"keyword.max_df": None, "keyword.fetch_max_df": None, "keyword.fetch_pairs": 0}
"""The keyword channel without its bound on what one search reads (as before issue 25)."""
SYSTEMS: tuple[tuple[str, dict[str, Any], dict[str, Any]], ...] = (
    ("vector alone", {"route": "vector", "channels": {"vector"}}, {}),
    ("keyword alone", {"route": "vector", "channels": {"keyword"}}, {}),
    ("vector route", {"route": "vector"}, {}),
    ("hybrid", {"route": "hybrid"}, {}),
    ("default", {"route": "auto"}, {}),
    ("keyword alone, unbounded", {"route": "vector", "channels": {"keyword"}}, UNBOUNDED),
    ("default, keyword unbounded", {"route": "auto"}, UNBOUNDED),
)
"""Every search each question goes through: name, search arguments, settings changed for it."""
BATCH = 64
CHUNK = 10_000
"""Positions per ``add_many`` call: the call validates (so holds) all its records before writing,
and 900,000 records with their 384-float vectors filled 14 GB of this 24 GB machine on the way to
the 1M point."""
WARMUP = 3
TENANT = "scale"


def add_parser(sub: Any) -> None:
    """The ``scale`` subcommand."""
    p = sub.add_parser("scale", help="grow one tenant through sizes; ingest, search, reopen, memory at each")
    p.add_argument(
        "--path", type=Path, required=True, help="store folder (kept: a later run can --resume it)"
    )
    p.add_argument("--sizes", default="10000,30000,100000", help="comma-separated sizes, ascending")
    p.add_argument("--source", choices=scale_stream.SOURCES, default="chat")
    p.add_argument("--vectors", choices=("random", "minilm"), default="random",
                   help="memories' vectors: seeded random unit vectors, or MiniLM's of each text (cached)")  # fmt: skip
    p.add_argument(
        "--embedder", choices=("minilm", "hash"), default="minilm", help="what embeds the questions"
    )
    p.add_argument("--questions", type=int, default=100)
    p.add_argument("--slice", type=int, default=2000, help="memories timed alone before each size")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--resume", action="store_true",
                   help="grow the stored tenant from where it is (else it is dropped first)")  # fmt: skip
    p.add_argument("--no-reopen", action="store_true", help="skip close/reopen")
    p.add_argument("--script-start", action="store_true",
                   help="also time a fresh process opening the tenant + one search (server stopped / running)")  # fmt: skip
    p.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                   help="a falkmem setting for every Memory of the run (repeatable)")  # fmt: skip
    p.add_argument("--data-dir", type=Path, default=None)
    p.add_argument("--out", type=Path, required=True, help="JSON report; .md and .png beside it")


def _settings(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        out[name.strip()] = value.strip()
    return out


def _pct(xs: Sequence[float], p: int) -> float:
    if not xs:
        return 0.0
    if len(xs) == 1:
        return round(xs[0], 2)
    return round(statistics.quantiles(xs, n=100, method="inclusive")[p - 1], 2)


def _server_pid(mem: Memory) -> int | None:
    server = mem._engine.store.server
    info = server.running() if server is not None else None
    return info.pid if info is not None else None


def _proc_status(pid: int | None) -> dict[str, int]:
    out: dict[str, int] = {}
    if pid is None:
        return out
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def _disk(path: Path) -> dict[str, int]:
    rdb = sum(p.stat().st_size for p in path.glob("*.rdb"))
    aof = sum(p.stat().st_size for p in (path / "appendonlydir").glob("*") if p.is_file())
    return {"rdb": rdb, "aof": aof, "total": rdb + aof}


def _pairs(flat: Any) -> dict[str, Any]:
    """``[k1, v1, k2, v2, ...]`` (nested too) → dict."""
    if not isinstance(flat, list | tuple):
        return {}
    return {(k.decode() if isinstance(k, bytes) else str(k)): (_pairs(v) if isinstance(v, list | tuple) else v)
            for k, v in zip(flat[0::2], flat[1::2], strict=False)}  # fmt: skip


def _memory(mem: Memory, path: Path) -> dict[str, Any]:
    """Server RSS, used_memory, disk, and the engine's own breakdown (GRAPH.MEMORY USAGE: whole
    MB, the HNSW index left out)."""
    store = mem._engine.store
    info = store.db.connection.info("memory")
    proc = _proc_status(_server_pid(mem))
    graph = store.graph(TENANT)
    try:
        usage = _pairs(store.executor.command("GRAPH.MEMORY USAGE", graph, "GRAPH.MEMORY", "USAGE", graph))
    except Exception as exc:  # the breakdown is extra; the run goes on without it
        usage = {"error": str(exc)}
    return {"rss": proc.get("VmRSS"), "peak_rss": proc.get("VmHWM"), "used_memory": int(info["used_memory"]),
            "used_memory_rss": int(info["used_memory_rss"]), "disk": _disk(path), "graph_memory_usage": usage}  # fmt: skip


def _graph_counts(mem: Memory, tenant: str) -> dict[str, int]:
    store = mem._engine.store
    g, ex = store.graph(tenant), store.executor
    out = {f"nodes:{r['label']}": int(r["n"]) for r in ex.run(g, query("admin/count_labels"))}
    out |= {f"edges:{r['type']}": int(r["n"]) for r in ex.run(g, query("admin/count_edge_types"))}
    return out


def _ingest(mem: Memory, stream: scale_stream.Stream, start: int, stop: int) -> dict[str, Any]:
    """Add positions [start, stop), ``CHUNK`` at a time; the wall time of each batch."""
    if stop <= start:
        return {"memories": 0, "seconds": 0.0, "rate_per_s": 0.0}
    marks: list[float] = []
    t0 = time.perf_counter()
    for lo in range(start, stop, CHUNK):
        mem.tenant(TENANT).add_many(stream.records(lo, min(lo + CHUNK, stop)), batch_size=BATCH,
                                    on_progress=lambda done, total: marks.append(time.perf_counter()))  # fmt: skip
    secs = time.perf_counter() - t0
    batches = [b - a for a, b in zip([t0, *marks], marks, strict=False)]
    return {"memories": stop - start, "seconds": round(secs, 2), "rate_per_s": round((stop - start) / secs, 1),
            "batch_ms_p50": round(statistics.median(batches) * 1000, 1) if batches else None}  # fmt: skip


def _searches(mem: Memory, stream: scale_stream.Stream, n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every question through every system, interleaved; latency and recall@10 per system; and
    the keyword channel alone, called directly with and without its bound (``keyword_max_df``)."""
    t = mem.tenant(TENANT)
    copies = scale_stream.gold_present(stream, n)
    qs = stream.questions
    for q in qs[:WARMUP]:
        for _, kwargs, changed in SYSTEMS:
            _search(mem, q, kwargs, changed)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in SYSTEMS}
    channel: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in _channel_variants(mem)}
    for q in qs:
        for name, kwargs, changed in SYSTEMS:
            s = time.perf_counter()
            r = _search(mem, q, kwargs, changed)
            e2e = (time.perf_counter() - s) * 1000
            rows[name].append({"q": q.id, "route": r.route, "e2e": e2e, "timings": dict(r.timings_ms),
                               "recall": scale_stream.recall_at(r.ids, q.gold_texts, copies, 10)})  # fmt: skip
        for name, bounds in _channel_variants(mem):
            s = time.perf_counter()
            cfg = mem.settings.keyword.model_copy(update=bounds)
            hits = keyword_search(mem._engine.store.executor, t.graph, q.text, cfg, k=10)
            ms = (time.perf_counter() - s) * 1000
            ids = [str(a["id"]) for a, _ in hits.hits]
            channel[name].append(
                {"ms": ms, "ids": ids, "recall": scale_stream.recall_at(ids, q.gold_texts, copies, 10)}
            )
    out: dict[str, Any] = {}
    for name, rs in rows.items():
        stages: dict[str, dict[str, float]] = {}
        for stage in sorted({k for r in rs for k in r["timings"]}):
            xs = [float(r["timings"][stage]) for r in rs if stage in r["timings"]]
            stages[stage] = {"p50": _pct(xs, 50), "p95": _pct(xs, 95)}
        rec = [r["recall"] for r in rs if r["recall"] is not None]
        out[name] = {
            "p50": stages.get("total", {}).get("p50"), "p95": stages.get("total", {}).get("p95"),
            "e2e_p50": _pct([r["e2e"] for r in rs], 50), "stages": stages,
            "recall@10": round(100 * sum(rec) / len(rec), 1) if rec else None, "questions": len(rs),
            "hybrid_share": round(sum(r["route"] == "hybrid" for r in rs) / len(rs), 2) if rs else 0.0,
            "per_question": [{"q": r["q"], "total": r["timings"].get("total"), "recall": r["recall"]} for r in rs],
        }  # fmt: skip
    return out, _channel_summary(channel)


def _search(
    mem: Memory, q: scale_stream.ScaleQuestion, kwargs: dict[str, Any], changed: dict[str, Any]
) -> Any:
    """One search, with ``changed`` settings for it alone (the engine's settings swapped and restored)."""
    engine = mem._engine
    base = engine.settings
    if changed:
        engine.settings = base.model_copy(update=changed)
    try:
        return mem.tenant(TENANT).search(q.text, k=10, now=q.now, **kwargs)
    finally:
        engine.settings = base


CHANNEL_VARIANTS: tuple[tuple[str, dict[str, int]], ...] = (
    ("unbounded", {}),
    *((f"max_df={b}", {"max_df": b}) for b in (2_500, 5_000, 10_000)),
    *((f"fetch_max_df={b}", {"fetch_max_df": b}) for b in (1_000, 2_500, 5_000)),
    *((f"fetch_max_df={b}, pairs=3", {"fetch_max_df": b, "fetch_pairs": 3}) for b in (1_000, 2_500)),
)
"""The keyword channel called directly at every size: with no bound, with terms over ``max_df``
dropped, with terms over ``fetch_max_df`` scoring but bringing no candidates, and with pairs of
them bringing the memories that hold both."""


def _channel_variants(mem: Memory) -> list[tuple[str, dict[str, int]]]:
    """:data:`CHANNEL_VARIANTS`, and the store's own settings when they are none of them."""
    s = mem.settings
    own = {
        k: v
        for k, v in (("max_df", s.keyword.max_df), ("fetch_max_df", s.keyword.fetch_max_df),
                     ("fetch_pairs", s.keyword.fetch_pairs))
        if v  # None or 0: not set
    }  # fmt: skip
    out = list(CHANNEL_VARIANTS)
    if own not in [v for _, v in out]:
        out.append(("settings " + ", ".join(f"{k}={v}" for k, v in own.items()), own))
    return out


def _channel_summary(channel: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """p50/p95 and recall@10 of each variant, and how many top-10s equal the unbounded one's."""
    out: dict[str, Any] = {}
    free = channel.get("unbounded", [])
    for name, rs in channel.items():
        rec = [r["recall"] for r in rs if r["recall"] is not None]
        same = sum(a["ids"] == b["ids"] for a, b in zip(rs, free, strict=False))
        out[name] = {"p50": _pct([r["ms"] for r in rs], 50), "p95": _pct([r["ms"] for r in rs], 95),
                     "recall@10": round(100 * sum(rec) / len(rec), 1) if rec else None,
                     "same_top10_as_unbounded": same, "questions": len(rs)}  # fmt: skip
    return out


def _server_load_lines(path: Path, offset: int) -> list[str]:
    """What the server said while it loaded (its own load time, from its log)."""
    try:
        with (path / "server.log").open("rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    keys = ("loaded", "Loading", "loading", "index", "Index", "Done", "Ready")
    return [
        ln.split(" * ", 1)[-1].split(" # ", 1)[-1][:200]
        for ln in text.splitlines()
        if any(k in ln for k in keys)
    ][-20:]


def _reopen(mem: Memory, make: Any, path: Path, stream: scale_stream.Stream) -> tuple[Memory, dict[str, Any]]:
    """Close, stop the server (a large store's lingers: ``server_idle_s``), open again, count,
    search once; each step timed."""
    t0 = time.perf_counter()
    _close_and_stop(mem)
    closed_s = time.perf_counter() - t0
    log = path / "server.log"
    offset = log.stat().st_size if log.exists() else 0
    t0 = time.perf_counter()
    mem = make()
    opened = time.perf_counter()
    count = mem.tenant(TENANT).count()
    counted = time.perf_counter()
    q = stream.questions[0]
    mem.tenant(TENANT).search(q.text, k=10, now=q.now)
    first = time.perf_counter()
    mem.tenant(TENANT).search(stream.questions[1].text, k=10, now=stream.questions[1].now)
    second = time.perf_counter()
    return mem, {
        "close_s": round(closed_s, 2), "open_s": round(opened - t0, 2), "count_s": round(counted - opened, 2),
        "reopen_s": round(counted - t0, 2), "first_search_ms": round((first - counted) * 1000, 1),
        "second_search_ms": round((second - first) * 1000, 1), "count": count,
        "server_log": _server_load_lines(path, offset),
    }  # fmt: skip


def _close_and_stop(mem: Memory) -> None:
    """Close ``mem`` and stop its server, also one that would outlive it (``server_idle_s``)."""
    server = mem._engine.store.server
    pid = _server_pid(mem)
    mem.close()
    if server is not None and pid is not None and Path(f"/proc/{pid}").exists():
        server.stop()
    while pid is not None and Path(f"/proc/{pid}").exists():
        time.sleep(0.05)


_SCRIPT = """
import sys, time, json
t0 = time.perf_counter()
from falkmem import Memory
kw = json.loads(sys.argv[2])
emb = None
if kw.pop("hash_embedder", False):
    from falkmem.testing import HashEmbedder
    emb = HashEmbedder()
m = Memory(sys.argv[1], embedder=emb, **kw)
t1 = time.perf_counter()
t = m.tenant("scale")
n = t.count()
t2 = time.perf_counter()
t.search(sys.argv[3], k=10)
t3 = time.perf_counter()
m.close()
print(json.dumps({"import_open_s": t1 - t0, "count_s": t2 - t1, "search_ms": (t3 - t2) * 1000, "n": n}))
"""


def _script_start(path: Path, settings: dict[str, Any], question: str, hash_embedder: bool) -> dict[str, Any]:
    """One fresh process: import, open, count, one search, close; wall time and its parts."""
    kw = dict(settings, hash_embedder=hash_embedder)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _SCRIPT, str(path), json.dumps(kw), question],
                         capture_output=True, text=True, env=os.environ.copy(), check=True)  # fmt: skip
    wall = time.perf_counter() - t0
    parts = json.loads(out.stdout.strip().splitlines()[-1])
    return {"wall_s": round(wall, 2), **{k: round(v, 2) for k, v in parts.items()}}


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Grow the tenant through ``args.sizes`` and measure at each; returns the report."""
    sizes = sorted(int(x) for x in args.sizes.split(",") if x.strip())
    stream = scale_stream.build(args.source, questions=args.questions, seed=args.seed, data_dir=args.data_dir)
    embedder = make_embedder(args.embedder)
    if args.vectors == "minilm":
        cache = args.path.parent / f"scale-vectors-{args.source}-{len(stream)}.npy"
        scale_stream.embed_texts(stream, cache, embedder.embed)
    settings = {"query_cache_size": 0, **_settings(args.setting)}
    Settings.load(**settings)  # a bad --setting fails before anything is written

    def make() -> Memory:
        return Memory(args.path, embedder=embedder, **settings)

    args.path.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    mem = make()  # with --resume and no server running: a reopen of the stored tenant
    first_open_s = round(time.perf_counter() - t0, 2)
    if not args.resume:
        mem.drop_tenant(TENANT)
    have = mem.tenant(TENANT).count() if mem.has_tenant(TENANT) else 0
    git, dirty = git_state(REPO_ROOT)
    report: dict[str, Any] = {
        "kind": "scale", "started": now_iso(), "git_commit": git, "git_dirty": dirty,
        "command": "python -m benchmarks " + " ".join(sys.argv[1:]), "source": args.source, "vectors": args.vectors,
        "question_embedder": args.embedder, "base_memories": len(stream), "questions": len(stream.questions),
        "settings": settings, "machine": machine().model_dump(), "packages": package_versions(),
        "first_open_s": first_open_s, "points": [],
    }  # fmt: skip
    try:
        for n in sizes:
            if n < have:
                continue
            load_before = os.getloadavg()
            cut = max(have, n - args.slice)
            segment = _ingest(mem, stream, have, cut)
            slice_ = _ingest(mem, stream, cut, n)
            have = n
            point: dict[str, Any] = {"memories": n, "load_before": [round(x, 2) for x in load_before],
                                     "ingest_segment": segment, "ingest_slice": slice_}  # fmt: skip
            point["searches"], point["keyword_channel"] = _searches(mem, stream, n)
            point["memory"] = _memory(mem, args.path)
            point["graph"] = _graph_counts(mem, TENANT)
            point["raw_bytes"] = stream.raw_bytes(n)
            if not args.no_reopen:
                mem, point["reopen"] = _reopen(mem, make, args.path, stream)
                point["memory_after_reopen"] = _memory(mem, args.path)
            if args.script_start:
                # two scripts one after the other, nothing else open: the first loads the store;
                # the second attaches if the server outlived the first (server_idle_s), else loads again
                q = stream.questions[0].text
                _close_and_stop(mem)
                cold = _script_start(args.path, settings, q, args.embedder == "hash")
                next_ = _script_start(args.path, settings, q, args.embedder == "hash")
                mem = make()
                point["script_start"] = {"server_stopped": cold, "next_script": next_}
            point["load_after"] = [round(x, 2) for x in os.getloadavg()]
            report["points"].append(point)
            print(scale_report.point_line(point), file=sys.stderr, flush=True)
            _write(report, args.out)
    finally:
        mem.close()
    report["finished"] = now_iso()
    _write(report, args.out)
    return report


def _write(report: dict[str, Any], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))


def main(args: argparse.Namespace) -> int:
    """Run ``scale``; print the table; write JSON, markdown and PNG."""
    report = run(args)
    table = scale_report.render(report)
    args.out.with_suffix(".md").write_text(table)
    scale_report.plot(report, args.out.with_suffix(".png"))
    sys.stdout.write(table)
    print(
        f"\nreport: {args.out}\ntable:  {args.out.with_suffix('.md')}\nplot:   {args.out.with_suffix('.png')}"
    )
    return 0
