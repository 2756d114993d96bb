"""Where a write's time goes, at each size of one growing tenant (issue 52).

    python tools/profile_write.py --path /tmp/pw --sizes 10000,100000 --out /tmp/pw.json
    python tools/profile_write.py --path /tmp/pw --resume --sizes 500000 --out /tmp/pw500.json

The tenant grows along the stream of ``python -m benchmarks scale`` (chat turns cycled, supplied
random vectors; ``benchmarks/scale_stream.py``), written by ``add_many`` in batches of 64 exactly as
the harness writes it. At each size two slices of ``--slice`` memories are written:

* a **plain** slice: the rate, and for each statement the server's own execution time
  ("Query internal execution time") against its round trip;
* a **profiled** slice: every client phase timed (validation, the ids-already-there read,
  extraction, row building, parameter serialisation, known-entity upkeep) and every write
  statement sent as ``GRAPH.PROFILE`` (which runs it, writes included), so the time of each
  operator of its plan is known; operators are grouped into the write's phases (artifact node,
  entity merge, relations and their evidence, keyword statistics, turn links, sessions...).

Printed per size: ms per batch of each phase and statement, and the per-operator plan (averaged
over the profiled batches). The JSON keeps all of it. Profiling adds its own cost (the plan is
timed operator by operator): read the phases against each other and against the plain slice.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import scale_stream  # noqa: E402
from falkmem import Memory  # noqa: E402
from falkmem.testing import HashEmbedder  # noqa: E402

TENANT = "scale"
BATCH = 64
CHUNK = 10_000

_OP = re.compile(
    r"^(?P<indent> *)(?P<body>.*?) \| Records produced: (?P<rec>\d+), Execution time: (?P<ms>[\d.]+) ms$"
)

# Which phase of the write an operator belongs to, by the aliases/labels in the subtree it heads.
_PHASES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("keyword stats", re.compile(r":_Term\b")),
    ("relations + evidence", re.compile(r"RELATED_TO|\((?:s|o|se|oe):Entity\)|:_Evidence\b")),
    ("entity merge + REFERENCES", re.compile(r"\((?:n|e):Entity\)|REFERENCES")),
    ("turn links", re.compile(r"NEXT|\((?:x|y|p|px|py):Artifact\)")),
    ("key history", re.compile(r"\((?:prev|nxt):Artifact\)|SUPERSEDES")),
    ("sessions/users/agents", re.compile(r":Session\)|:User\)|:Agent\)")),
    ("meta", re.compile(r":_Meta\)")),
)
_BODY_OPS = {"Foreach", "Apply", "Merge", "Semi Apply", "Anti Semi Apply", "Cartesian Product", "Optional"}


class Op:
    def __init__(self, body: str, records: int, ms: float, depth: int) -> None:
        self.body, self.records, self.ms, self.depth = body, records, ms, depth
        self.children: list[Op] = []

    @property
    def name(self) -> str:
        return self.body.split(" | ")[0]

    def walk(self) -> Iterator[Op]:
        yield self
        for c in self.children:
            yield from c.walk()


def parse_profile(lines: list[str]) -> Op:
    """GRAPH.PROFILE's lines → a tree of operators (each time is the operator's own)."""
    root: Op | None = None
    stack: list[Op] = []
    for line in lines:
        m = _OP.match(line)
        if not m:
            continue
        op = Op(m["body"], int(m["rec"]), float(m["ms"]), len(m["indent"]) // 4)
        while stack and stack[-1].depth >= op.depth:
            stack.pop()
        if stack:
            stack[-1].children.append(op)
        else:
            root = op
        stack.append(op)
    if root is None:
        raise ValueError("no operator in the profile")
    return root


def _phase_of(tree: Op) -> str | None:
    text = " ".join(o.body for o in tree.walk())
    for name, pat in _PHASES:
        if pat.search(text):
            return name
    return None


def classify(op: Op, inherited: str, out: dict[int, str]) -> None:
    """Tag every operator with a phase: a body (the non-first children of Foreach/Apply/Merge)
    takes the phase its subtree names; the main chain keeps ``inherited``."""
    own = None
    if op.name in _BODY_OPS and len(op.children) > 1:
        own = next((p for c in op.children[1:] if (p := _phase_of(c))), None)
    elif op.name in ("Create", "Update", "Delete") and inherited == "main chain":
        own = "artifact node create" if op.name == "Create" else None
    out[id(op)] = own or inherited
    for i, c in enumerate(op.children):
        if op.name in _BODY_OPS and i > 0:
            classify(c, own or _phase_of(c) or inherited, out)
        else:
            classify(c, inherited if op.name not in _BODY_OPS or i == 0 else (own or inherited), out)


def plan_lines(tree: Op) -> list[str]:
    return [("    " * o.depth) + o.body for o in tree.walk()]


class Recorder:
    """Timings of one slice: client phases (seconds) and statements (server and wall ms)."""

    def __init__(self) -> None:
        self.client: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.statements: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.ops: dict[str, dict[str, Any]] = {}
        self.phases: dict[str, float] = defaultdict(float)
        self.profiled_batches = 0

    def timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.client[name] += time.perf_counter() - t0
                self.calls[name] += 1

        return wrapper


def _instrument(mem: Memory, rec: Recorder, *, profile: bool) -> Callable[[], None]:
    """Wrap the write path's functions; returns the undo."""
    import falkordb.graph as fg

    from falkmem import tenant as tenant_mod
    from falkmem.ingest import caps
    from falkmem.ingest import writer as w
    from falkmem.storage.cypher import query as named

    eng = mem._engine
    ex = eng.store.executor
    saved: list[tuple[Any, str, Any]] = []

    def patch(obj: Any, attr: str, new: Any) -> None:
        saved.append((obj, attr, getattr(obj, attr)))
        setattr(obj, attr, new)

    patch(tenant_mod, "prepare", rec.timed("validation", tenant_mod.prepare))
    patch(
        w, "_embed_stage", rec.timed("dedupe + existing ids + vectors (ahead, in a thread)", w._embed_stage)
    )
    if eng.extractor is not None:
        patch(eng.extractor, "extract", rec.timed("extraction", eng.extractor.extract))
    patch(w, "shared_identifiers", rec.timed("extraction", w.shared_identifiers))
    patch(w, "_row", rec.timed("row build", w._row))
    patch(w, "_set_key", rec.timed("row build", w._set_key))
    patch(caps, "enforce", rec.timed("row build", caps.enforce))
    for name in ("prepare_rows", "aggregate_batch"):  # the batched write's client side, when present
        if hasattr(w, name):
            patch(w, name, rec.timed("row build", getattr(w, name)))
    patch(eng, "note_entities", rec.timed("known-entity upkeep", eng.note_entities))
    patch(
        fg.Graph, "_build_params_header", rec.timed("parameter serialisation", fg.Graph._build_params_header)
    )

    orig_run = ex.run

    def run(graph: str, q: Any, params: Any = None, **kw: Any) -> Any:
        t0 = time.perf_counter()
        if not (profile and q.mode == "write" and q.name.startswith("ingest/")):
            out = orig_run(graph, q, params, **kw)
            st = rec.statements[q.name]
            st["wall_ms"] += (time.perf_counter() - t0) * 1000
            st["calls"] += 1
            return out
        g = ex.db.select_graph(graph)
        header = g._build_params_header(dict(params or {}))
        raw = g.execute_command("GRAPH.PROFILE", g.name, header + q.text)
        wall = (time.perf_counter() - t0) * 1000
        lines = [x.decode() if isinstance(x, bytes) else str(x) for x in raw]
        tree = parse_profile(lines)
        tags: dict[int, str] = {}
        classify(tree, "main chain", tags)
        st = rec.statements[q.name + " (profiled)"]
        st["wall_ms"] += wall
        st["ops_ms"] += sum(o.ms for o in tree.walk())
        st["calls"] += 1
        agg = rec.ops.setdefault(q.name, {"plan": None, "ms": None, "records": None, "phase": None})
        flat = list(tree.walk())
        if agg["plan"] is None or len(agg["plan"]) != len(flat):
            agg.update(plan=plan_lines(tree), ms=[0.0] * len(flat), records=[0] * len(flat),
                       phase=[tags[id(o)] for o in flat])  # fmt: skip
        for i, o in enumerate(flat):
            agg["ms"][i] += o.ms
            agg["records"][i] += o.records
            rec.phases[f"{q.name}: {tags[id(o)]}"] += o.ms
        rec.profiled_batches += 1
        return _result_after_profile(orig_run, named, graph, q.name, params or {})

    patch(ex, "run", run)

    orig_query = fg.Graph._query

    def timed_query(
        self: Any, q: str, params: Any = None, timeout: Any = None, read_only: bool = False
    ) -> Any:
        out = orig_query(self, q, params=params, timeout=timeout, read_only=read_only)
        name = _name_of(q)
        rec.statements[name]["server_ms"] += float(out.run_time_ms)
        return out

    patch(fg.Graph, "_query", timed_query)

    def undo() -> None:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)

    return undo


_NAMES: dict[str, str] = {}


def _name_of(text: str) -> str:
    if not _NAMES:
        from falkmem.storage import cypher

        for q in cypher.load_all().values():
            _NAMES[q.text] = q.name
    return _NAMES.get(text, "other")


def _result_after_profile(run: Any, named: Any, graph: str, name: str, params: dict[str, Any]) -> Any:
    """What the statement would have returned (PROFILE returns its plan only)."""
    if name in ("ingest/create_artifacts", "ingest/create_batch"):
        ids = [r["id"] for r in params["rows"]]
        found = [str(r["id"]) for r in run(graph, named("ingest/existing_ids"), {"ids": ids})]
        stamp = run(graph, named("admin/read_entity_stamp"), {})
        return [{"created": len(found), "ids": found, "stamp": stamp[0]["stamp"] if stamp else None}]
    raise SystemExit(f"profile_write: no result rebuild for {name}; teach _result_after_profile")


def _grow(mem: Memory, stream: scale_stream.Stream, start: int, stop: int) -> float:
    t0 = time.perf_counter()
    for lo in range(start, stop, CHUNK):
        mem.tenant(TENANT).add_many(stream.records(lo, min(lo + CHUNK, stop)), batch_size=BATCH)
    return time.perf_counter() - t0


def _slice(mem: Memory, stream: scale_stream.Stream, start: int, n: int, *, profile: bool) -> dict[str, Any]:
    rec = Recorder()
    undo = _instrument(mem, rec, profile=profile)
    try:
        records = list(stream.records(start, start + n))
        t0 = time.perf_counter()
        mem.tenant(TENANT).add_many(records, batch_size=BATCH)
        wall = time.perf_counter() - t0
    finally:
        undo()
    batches = -(-n // BATCH)
    per_batch = {k: round(v * 1000 / batches, 2) for k, v in sorted(rec.client.items())}
    statements = {k: {m: round(x / batches, 2) if m != "calls" else int(x) for m, x in v.items()}
                  for k, v in sorted(rec.statements.items())}  # fmt: skip
    out: dict[str, Any] = {
        "memories": n, "wall_s": round(wall, 2), "rate_per_s": round(n / wall, 1), "batches": batches,
        "client_ms_per_batch": per_batch, "statements_ms_per_batch": statements,
    }  # fmt: skip
    if profile:
        out["phases_ms_per_batch"] = {
            k: round(v / batches, 2) for k, v in sorted(rec.phases.items(), key=lambda x: -x[1])
        }
        out["plans"] = {
            name: [{"op": line, "ms": round(ms / batches, 3), "records": r // batches, "phase": ph}
                   for line, ms, r, ph in zip(a["plan"], a["ms"], a["records"], a["phase"], strict=True)]
            for name, a in rec.ops.items()
        }  # fmt: skip
    return out


def _server(mem: Memory) -> dict[str, Any]:
    info = mem._engine.store.db.connection.info("memory")
    return {"used_memory": int(info["used_memory"]), "used_memory_rss": int(info["used_memory_rss"])}


def _print(size: int, plain: dict[str, Any], prof: dict[str, Any]) -> None:
    p = print
    p(
        f"\n=== {size:,} memories: plain slice {plain['rate_per_s']}/s, profiled {prof['rate_per_s']}/s, load {os.getloadavg()[0]:.2f}"
    )
    p("client phases, ms per batch of 64 (profiled slice):")
    for k, v in prof["client_ms_per_batch"].items():
        p(f"  {v:9.2f}  {k}")
    p("statements, ms per batch (plain slice: server = internal execution time, wall = round trip):")
    for k, v in plain["statements_ms_per_batch"].items():
        p(f"  {k}: {v}")
    p("statements (profiled slice):")
    for k, v in prof["statements_ms_per_batch"].items():
        p(f"  {k}: {v}")
    p("server phases of the write statement, ms per batch (sum of operator times):")
    for k, v in prof.get("phases_ms_per_batch", {}).items():
        p(f"  {v:9.2f}  {k}")
    for name, plan in prof.get("plans", {}).items():
        p(f"plan of {name}, ms per batch (operators over 0.2 ms):")
        for row in plan:
            if row["ms"] >= 0.2:
                p(f"  {row['ms']:8.2f}  {row['records']:>6}  [{row['phase']}]  {row['op'].strip()}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--path", type=Path, required=True)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--slice", type=int, default=1280, help="memories per measured slice (each of two)")
    ap.add_argument("--resume", action="store_true", help="grow the stored tenant from where it is")
    ap.add_argument("--source", choices=scale_stream.SOURCES, default="chat")
    ap.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    settings: dict[str, Any] = {"query_cache_size": 0}
    for pair in args.setting:
        k, _, v = pair.partition("=")
        settings[k.strip()] = v.strip()
    stream = scale_stream.build(args.source, questions=100)
    args.path.mkdir(parents=True, exist_ok=True)
    mem = Memory(args.path, embedder=HashEmbedder(), **settings)
    if not args.resume:
        mem.drop_tenant(TENANT)
    have = mem.tenant(TENANT).count() if mem.has_tenant(TENANT) else 0
    report: dict[str, Any] = {"command": " ".join(sys.argv), "points": []}
    try:
        for size in sorted(int(x) for x in args.sizes.split(",")):
            target = size - 2 * args.slice
            if target > have:
                secs = _grow(mem, stream, have, target)
                print(
                    f"grew {have:,} -> {target:,} in {secs:.0f} s ({(target - have) / secs:.1f}/s)",
                    flush=True,
                )
                have = target
            plain = _slice(mem, stream, have, args.slice, profile=False)
            have += args.slice
            prof = _slice(mem, stream, have, args.slice, profile=True)
            have += args.slice
            point = {
                "memories": have,
                "load": os.getloadavg(),
                "plain": plain,
                "profiled": prof,
                "server": _server(mem),
            }
            report["points"].append(point)
            _print(have, plain, prof)
            args.out.write_text(json.dumps(report, indent=1))
    finally:
        mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
