"""Smoke run of the benchmark harness: tiny synthetic dataset, HashEmbedder, quick sweep, real store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.report import BenchReport


def test_smoke_run_writes_report_table_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "smoke.json", tmp_path / "smoke.png"
    code = main([
        "run", "--dataset", "synthetic", "--size", "200", "--questions", "12", "--sweep", "quick",
        "--embedder", "hash", "--clients", "1,2", "--floor-sample", "100", "--no-progress",
        "--path", str(tmp_path / "store"), "--out", str(out), "--plot", str(png),
    ])  # fmt: skip
    assert code == 0
    stdout = capsys.readouterr().out
    assert "| tenant | system | R@2 | R@5 |" in stdout
    assert "| synthetic | vector-only |" in stdout and "### Latency per route" in stdout

    report = BenchReport.model_validate(json.loads(out.read_text()))
    assert report.seed == 7 and report.size == 200 and report.sweep == "quick"
    assert report.machine.cpu_count >= 1 and report.packages["falkmem"]
    assert report.settings["graph_weight"] > 0 and "password" not in report.settings
    names = {s.system for s in report.systems}
    assert {"vector-only", "keyword-only", "default (settings)", "always-hybrid hops=1"} <= names
    for s in report.systems:
        assert s.questions == 12
        for value in [*s.recall.values(), *s.all_recall.values(), s.mrr]:
            assert 0.0 <= value <= 1.0
        for bucket in s.recall_by_hops.values():
            assert 0.0 <= bucket["@5"] <= 1.0
        assert abs(sum(s.route_share.values()) - 1.0) < 1e-9
        assert s.latency_ms["total"]["p50"] > 0 and s.latency_ms["e2e"]["n"] == 12
        assert 0 < s.context_tokens["mean"] <= 800
    hybrid = next(s for s in report.systems if s.system == "always-hybrid hops=1")
    assert hybrid.route_share == {"hybrid": 1.0}
    assert report.systems[0].route_share == {"vector": 1.0}
    [ingest] = report.ingest
    assert ingest.memories == 200 and ingest.rate_per_s > 0 and ingest.embed_floor_sample == 100
    assert [t.clients for t in report.throughput] == [1, 2]
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
