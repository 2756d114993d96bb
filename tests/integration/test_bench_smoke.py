"""Smoke run of the benchmark harness: tiny synthetic dataset, HashEmbedder, quick sweep, real store."""

from __future__ import annotations

import json
from dataclasses import replace
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
    assert report.settings["graph"]["weight"] > 0 and "password" not in report.settings
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
                                                  "default (settings)", "default hops=2", "always-hybrid hops=1",
                                                  "rank fusion (RRF)", "default without links",
                                                  "default without leanings", "default without the relational walk"]  # fmt: skip
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


_WORDS = ["kestrel", "marlin", "ocelot", "quokka", "tapir", "walrus", "bison", "heron", "lemur", "okapi", "puffin",
          "raven", "serval", "toucan", "viper", "wombat", "yak", "zebu", "egret", "gecko", "ibis", "jackal"]  # fmt: skip


def _planted_fixture(path: Path) -> Path:
    lines = []
    for i, w in enumerate(_WORDS):
        lines.append({"type": "memory", "id": f"m{i}", "text": f"The {w} badge opens door {100 + i}."})
        lines.append({"type": "question", "id": f"q{i}", "text": f"Which door does the {w} badge open?",
                      "gold": [f"m{i}"], "category": "even" if i % 2 == 0 else "odd"})  # fmt: skip
    path.write_text("\n".join(json.dumps(x) for x in lines))
    return path


def test_planted_difference_is_flagged_and_compare_guards_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of keyword-only made worse on half the questions: its CI excludes 0, an identical copy's does not."""
    import benchmarks.__main__ as cli
    from benchmarks import runner
    from benchmarks.systems import System

    keyword = frozenset({"keyword"})
    chosen = [System("keyword-only", "baseline", route="vector", channels=keyword),
              System("identical", "baseline", route="vector", channels=keyword),
              System("planted-worse", "baseline", route="vector", channels=keyword),
              System("default (settings)", "router")]  # fmt: skip
    monkeypatch.setattr(runner, "systems", lambda sweep, reranker=False: chosen)
    monkeypatch.setattr(cli, "systems", lambda sweep, reranker=False: chosen)
    real_run_system = runner.run_system

    def planted(mem, data, system, cfg):  # type: ignore[no-untyped-def]
        rows = real_run_system(mem, data, system, cfg)
        if system.name != "planted-worse":
            return rows
        return [replace(r, ids=tuple(i for i in r.ids if i not in r.question.gold)) if n % 2 == 0 else r
                for n, r in enumerate(rows)]  # fmt: skip

    monkeypatch.setattr(runner, "run_system", planted)
    out = tmp_path / "p.json"
    args = ["run", "--dataset", "jsonl", "--file", str(_planted_fixture(tmp_path / "d.jsonl")), "--embedder", "hash",
            "--baseline", "keyword-only", "--clients", "none", "--no-context", "--floor-sample", "0", "--no-progress",
            "--path", str(tmp_path / "store"), "--out", str(out)]  # fmt: skip
    assert cli.main(args) == 0
    stdout = capsys.readouterr().out
    report = BenchReport.model_validate(json.loads(out.read_text()))
    by = {s.system: s for s in report.systems}
    assert by["keyword-only"].recall["@5"] == 1.0 and by["keyword-only"].vs_baseline == {}
    worse, same = by["planted-worse"].vs_baseline["R@5"], by["identical"].vs_baseline["R@5"]
    assert worse.n == 22 and worse.delta == pytest.approx(-0.5) and worse.ci_high < 0 and worse.significant
    assert same.ci_low <= 0 <= same.ci_high and not same.significant
    even = by["planted-worse"].by_class["category"]["even"].vs_baseline["R@5"]
    assert (
        even.delta == -1.0 and by["planted-worse"].by_class["category"]["odd"].vs_baseline["R@5"].delta == 0.0
    )
    assert "| jsonl | planted-worse | 22 |" in stdout and "-50.0 [" in stdout and "]*" in stdout
    # per-question results: ids and metrics, no memory text
    mine = [q for q in report.questions if q.system == "planted-worse"]
    assert (
        len(mine) == 22
        and mine[0].gold == ["m0"]
        and "m0" not in mine[0].ranked
        and mine[0].metrics["R@5"] == 0.0
    )
    assert "badge opens door" not in out.read_text()

    # compare: against itself nothing regresses; against a run where default lost half its hits it fails
    assert cli.main(["compare", str(out), str(out), "--fail-on", "default:R@5"]) == 0
    worse_run = report.model_copy(deep=True)
    for q in worse_run.questions:
        if q.system == "default (settings)" and int(q.id[1:]) % 2 == 0:
            q.ranked, q.metrics = [], {k: 0.0 for k in q.metrics}
    new = tmp_path / "new.json"
    new.write_text(worse_run.model_dump_json())
    capsys.readouterr()
    assert cli.main(["compare", str(out), str(new), "--fail-on", "default:R@5"]) == 1
    text = capsys.readouterr().out
    assert (
        "11 questions whose R@5 fell" in text
        and "| jsonl | q0 | Which door does the kestrel badge open? |" in text
    )
    assert "significant regressions" in text and "default (settings)" in text
    assert cli.main(["compare", str(out), str(new), "--fail-on", "identical:R@5"]) == 0
    assert cli.main(["compare", str(out), str(new), "--fail-on", "nosuch:R@5"]) == 2
