"""The benchmark report's routes table: each route's p50 against the vector-only floor."""

from __future__ import annotations

from typing import Any

from benchmarks.report import SystemResult
from benchmarks.runner import embedder_label
from benchmarks.table import routes_table
from falkmem.testing import HashEmbedder


def _system(tenant: str, name: str, total_p50: float, by_route: dict[str, float]) -> SystemResult:
    lat = {"p50": total_p50, "p95": total_p50 * 1.5, "p99": total_p50 * 2, "mean": total_p50, "n": 10.0}
    routes: dict[str, dict[str, float]] = {
        r: {"p50": v, "p95": v * 1.5, "p99": v * 2, "mean": v, "n": 5.0} for r, v in by_route.items()
    }
    zero: dict[str, Any] = {"@2": 0.0, "@5": 0.0, "@10": 0.0}
    return SystemResult(
        tenant=tenant, system=name, group="g", questions=10, recall=zero, all_recall=zero, mrr=0.0,
        recall_by_hops={}, context_tokens={}, context_source="", route_share={}, latency_ms={"total": lat},
        latency_by_route_ms=routes,
    )  # fmt: skip


def test_routes_are_measured_against_the_floor_of_their_own_tenant() -> None:
    table = routes_table(
        [
            _system("a", "vector-only", 8.0, {"vector": 8.0}),
            _system("a", "default (settings)", 14.0, {"hybrid": 16.0, "vector": 10.0}),
            _system("b", "vector-only", 5.0, {"vector": 5.0}),
            _system("b", "default (settings)", 6.0, {"vector": 6.0}),
            _system("c", "default (settings)", 6.0, {"vector": 6.0}),  # no floor measured
        ]
    )
    rows = {tuple(c.strip() for c in line.strip("|").split("|")[:3]): line.strip("|").split("|")[-1].strip()
            for line in table.splitlines()[2:]}  # fmt: skip
    assert rows[("a", "default (settings)", "hybrid")] == "2.00"
    assert rows[("a", "default (settings)", "vector")] == "1.25"
    assert rows[("a", "vector-only", "vector")] == "1.00"
    assert rows[("b", "default (settings)", "vector")] == "1.20"
    assert rows[("c", "default (settings)", "vector")] == "–"


def test_the_report_names_the_backend_that_ran() -> None:
    # The harness once ran torch while the library's default was ONNX; the report says which.
    from falkmem.embedding.minilm import minilm

    assert embedder_label(minilm("onnx")) == "all-MiniLM-L6-v2 (onnx)"  # built lazily: no model loaded
    assert embedder_label(minilm("torch")) == "all-MiniLM-L6-v2 (torch)"
    assert embedder_label(HashEmbedder()) == f"{HashEmbedder().name} (HashEmbedder)"
