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


def _lme_file(folder: Path, qid: str, qtype: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    sessions = [[{"role": "user", "content": f"Note {i}.{j} about the garden and the trip to Lisbon."}
                 for j in range(3)] for i in range(4)]  # fmt: skip
    sessions[2][1] = {"role": "user", "content": "My cat Miso turned three today.", "has_answer": True}
    raw = {"question_id": qid, "question_type": qtype, "question": "How old is my cat Miso?",
           "answer_session_ids": ["s2"], "haystack_session_ids": ["s0", "s1", "s2", "s3"],
           "haystack_dates": [f"2023/05/2{i} (Sat) 10:00" for i in range(4)], "haystack_sessions": sessions}  # fmt: skip
    (folder / f"{qid}.json").write_text(json.dumps(raw))


def test_real_sweep_pools_tenants_reports_sessions_and_reuses(tmp_path: Path) -> None:
    data = tmp_path / "lme"
    for qid, qtype in [("q1", "multi-session"), ("q2", "temporal-reasoning"), ("q3", "multi-session")]:
        _lme_file(data, qid, qtype)
    args = ["run", "--dataset", "longmemeval", "--data-dir", str(data), "--tenants", "2", "--sweep", "real",
            "--embedder", "hash", "--clients", "none", "--no-context", "--floor-sample", "0", "--no-progress",
            "--path", str(tmp_path / "store")]  # fmt: skip
    out = tmp_path / "r.json"
    assert main([*args, "--out", str(out)]) == 0
    report = BenchReport.model_validate(json.loads(out.read_text()))
    assert [s.system for s in report.systems] == ["vector-only", "keyword-only", "vector route (vector+keyword)",
                                                  "default (settings)", "always-hybrid hops=2"]  # fmt: skip
    for s in report.systems:
        assert (s.tenant, s.tenants, s.questions) == ("longmemeval", 2, 2)
        assert set(s.session_recall) == {"@2", "@5", "@10"}
        assert s.session_recall["@10"] >= s.recall["@10"]  # one gold turn per gold session here
    keyword = next(s for s in report.systems if s.system == "keyword-only")
    assert keyword.recall["@10"] == 1.0  # "Miso" is in one turn only
    assert report.throughput == [] and [i.tenant for i in report.ingest] == ["lme-q1", "lme-q2"]
    assert all(not i.reused and i.embed_floor_sample == 0 for i in report.ingest)
    again = tmp_path / "again.json"
    assert main([*args, "--reuse", "--out", str(again)]) == 0
    second = BenchReport.model_validate(json.loads(again.read_text()))
    assert all(i.reused for i in second.ingest)
    assert [s.recall for s in second.systems] == [s.recall for s in report.systems]
