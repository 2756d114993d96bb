"""Markdown tables of a report: systems (quality, tokens, routes, latency), per-route latency, ingest, throughput."""

from __future__ import annotations

from collections.abc import Sequence

from .report import BenchReport, SystemResult
from .stats import MIN_N
from .table_paired import class_table, fmt_delta, paired_table


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = [_row(head), _row(["---"] * len(head)), *(_row(r) for r in rows)]
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _hops(s: SystemResult, bucket: str, key: str = "@5") -> float | None:
    return s.recall_by_hops.get(bucket, {}).get(key)


def systems_table(systems: Sequence[SystemResult]) -> str:
    """One row per (tenant, system): recall (%), MRR, tokens, hybrid share, latency (ms)."""
    head = ["tenant", "system", "R@2", "R@5", "R@10", "all@5", "all@10", "MRR", "R@5 1-hop", "R@5 2+hop",
            "all@5 2+hop", "ctx tok", "hybrid %", "p50 ms", "p95 ms", "p99 ms"]  # fmt: skip
    sessions = any(s.session_recall for s in systems)
    if sessions:
        head += ["session R@5", "session R@10"]
    head += ["NDCG@10", "R@5 95% CI", "ΔR@5 vs baseline"]
    rows = []
    for s in systems:
        lat = s.latency_ms.get("total", {})
        extra = [_pct(s.session_recall.get("@5")), _pct(s.session_recall.get("@10"))] if sessions else []
        ci = s.ci.get("R@5")
        extra += [_pct(s.ndcg.get("@10")), f"[{_pct(ci[0])}, {_pct(ci[1])}]" if ci else "–",
                  fmt_delta(s.vs_baseline.get("R@5")) if s.vs_baseline else "baseline"]  # fmt: skip
        rows.append([
            s.tenant, s.system, _pct(s.recall["@2"]), _pct(s.recall["@5"]), _pct(s.recall["@10"]),
            _pct(s.all_recall["@5"]), _pct(s.all_recall["@10"]), f"{s.mrr:.3f}",
            _pct(_hops(s, "1-hop")), _pct(_hops(s, "2+hop")), _pct(_hops(s, "2+hop", "all@5")),
            f"{s.context_tokens.get('mean', 0):.0f}", _pct(s.route_share.get("hybrid", 0.0)),
            f"{lat.get('p50', 0):.1f}", f"{lat.get('p95', 0):.1f}", f"{lat.get('p99', 0):.1f}", *extra,
        ])  # fmt: skip
    return _table(head, rows)


FLOOR = "vector-only"
"""The system whose p50 is the floor: the question embedded and one vector query."""


def routes_table(systems: Sequence[SystemResult]) -> str:
    """End-to-end latency of each route within each system (p50/p95 ms, query count), and its
    p50 against the floor (the ``vector-only`` system's p50 on the same tenant)."""
    floor = {s.tenant: s.latency_ms.get("total", {}).get("p50") for s in systems if s.system == FLOOR}
    rows = []
    for s in systems:
        base = floor.get(s.tenant)
        for route, lat in sorted(s.latency_by_route_ms.items()):
            ratio = f"{lat['p50'] / base:.2f}" if base else "–"
            rows.append([s.tenant, s.system, route, int(lat["n"]), f"{lat['p50']:.1f}", f"{lat['p95']:.1f}",
                         f"{lat['p99']:.1f}", ratio])  # fmt: skip
    return _table(["tenant", "system", "route", "queries", "p50 ms", "p95 ms", "p99 ms", "p50 × floor"], rows)


def stages_table(systems: Sequence[SystemResult]) -> str:
    """p50 / p95 of every pipeline stage of each system (ms)."""
    stages = sorted({st for s in systems for st in s.latency_ms if st not in ("total", "e2e")})
    head = ["tenant", "system", *[f"{st} p50/p95" for st in stages], "e2e p50/p95"]
    rows = []
    for s in systems:
        cells: list[object] = [s.tenant, s.system]
        for st in [*stages, "e2e"]:
            lat = s.latency_ms.get(st)
            cells.append(f"{lat['p50']:.1f}/{lat['p95']:.1f}" if lat else "–")
        rows.append(cells)
    return _table(head, rows)


def throughput_table(report: BenchReport) -> str:
    """Queries per second with N concurrent clients (only when measured)."""
    return "\n".join([
        "### Throughput", "",
        _table(["tenant", "system", "clients", "queries", "qps", "p50 ms", "p95 ms"],
               [[t.tenant, t.system, t.clients, t.queries, f"{t.qps:.1f}", f"{t.latency_ms['p50']:.1f}",
                 f"{t.latency_ms['p95']:.1f}"] for t in report.throughput]),
    ])  # fmt: skip


def render(report: BenchReport) -> str:
    """The whole markdown summary printed at the end of a run."""
    parts = [
        f"## falkmem benchmark: {report.dataset} (size {report.size}, seed {report.seed}, sweep {report.sweep}, "
        f"embedder {report.embedder}, k {report.k}, budget {report.budget_tokens} tokens)",
        "",
        "Recall, all-recall, NDCG and hybrid share in %; latency is the SDK's `timings_ms.total`; "
        f"deltas are paired against `{report.baseline}` on the same questions.",
        "",
        systems_table(report.systems),
        "",
        f"### Paired differences against `{report.baseline}` (points, bootstrap 95% CI; * = CI excludes 0, "
        f"n ≥ {MIN_N})",
        "",
        paired_table(report.systems),
        "",
        f"### By {report.class_by}",
        "",
        class_table(report.systems, report.class_by),
        "",
        "### By the route each system took",
        "",
        class_table(report.systems, "route"),
        "",
        "### Latency per route",
        "",
        routes_table(report.systems),
        "",
        "### Latency per stage (ms)",
        "",
        stages_table(report.systems),
        "",
        "### Ingest",
        "",
        _table(
            [
                "tenant",
                "memories",
                "seconds",
                "memories/s",
                "embedder alone/s",
                "share of floor",
                "store MiB",
                "bytes/memory",
            ],
            [
                [
                    i.tenant,
                    i.memories,
                    f"{i.seconds:.1f}",
                    f"{i.rate_per_s:.1f}",
                    f"{i.embed_floor_rate_per_s:.1f}" if i.embed_floor_sample else "–",
                    f"{i.share_of_floor:.2f}" if i.embed_floor_sample else "–",
                    "–" if i.used_memory_delta is None else f"{i.used_memory_delta / 2**20:.1f}",
                    "–" if i.bytes_per_memory is None else f"{i.bytes_per_memory:.0f}",
                ]
                for i in report.ingest
            ],
        ),
    ]
    if report.throughput:
        parts += ["", throughput_table(report)]
    if report.notes:
        parts += ["", "Notes:", *(f"- {n}" for n in report.notes)]
    return "\n".join(parts) + "\n"
