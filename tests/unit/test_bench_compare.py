"""``benchmarks compare``: questions matched by id, wins and losses listed, --fail-on exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.compare import CompareError, diff, resolve
from benchmarks.report import BenchReport, Machine, QuestionResult


def _report(r5: dict[str, list[float]], ids: range = range(20)) -> BenchReport:
    qs = [QuestionResult(tenant="t", group="g", system=system, id=f"q{i}", text=f"question {i}?", category="c",
                         hops=1, gold=["m"], ranked=["m"] if v[i] else [], route="vector", latency_ms=1.0,
                         e2e_ms=1.0, metrics={"R@5": v[i], "R@10": v[i], "RR": v[i]})
          for system, v in r5.items() for i in ids]  # fmt: skip
    return BenchReport(created_at="2026-01-01T00:00:00+00:00", command="", dataset="d", dataset_info={}, size=1,
                       seed=7, sweep="real", k=10, budget_tokens=800, embedder="hash", git_commit=None,
                       git_dirty=None, packages={}, machine=Machine(cpu_count=1, platform="p", python="3.12"),
                       settings={}, instances={}, ingest=[], systems=[], throughput=[], questions=qs)  # fmt: skip


def _write(path: Path, report: BenchReport) -> str:
    path.write_text(report.model_dump_json())
    return str(path)


def test_diff_matches_by_id_and_lists_losses_and_wins() -> None:
    old = _report({"default (settings)": [1.0] * 10 + [0.0] * 10})
    new = _report({"default (settings)": [0.0] * 3 + [1.0] * 7 + [1.0] + [0.0] * 9}, ids=range(19, -1, -1))
    [d] = diff(old, new)
    assert d.matched == 20 and d.only_old == d.only_new == 0
    assert [o.id for o, _ in d.lost] == ["q0", "q1", "q2"] and [n.id for _, n in d.won] == ["q10"]
    assert d.deltas["R@5"].delta == pytest.approx(-2 / 20) and d.deltas["RR"].n == 20
    assert not d.deltas["R@5"].significant


def test_resolve_takes_a_unique_prefix() -> None:
    names = ["default (settings)", "vector-only", "vector route (vector+keyword)"]
    assert resolve("default", names) == "default (settings)"
    assert resolve("vector-only", names) == "vector-only"
    with pytest.raises(CompareError, match="more than one"):
        resolve("vector", names)


def test_compare_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _report({"default (settings)": [1.0] * 20, "vector-only": [1.0] * 20})
    bad = _report({"default (settings)": [1.0, 0.0] * 10, "vector-only": [1.0] * 20})
    a, b = _write(tmp_path / "a.json", good), _write(tmp_path / "b.json", bad)
    assert main(["compare", a, b]) == 0  # no --fail-on: report only
    assert "10 questions whose R@5 fell" in capsys.readouterr().out
    assert main(["compare", a, b, "--fail-on", "default:R@5"]) == 1
    assert main(["compare", a, b, "--fail-on", "vector-only:R@5", "--fail-on", "default:MRR"]) == 1
    assert main(["compare", b, a, "--fail-on", "default:R@5"]) == 0  # an improvement is no regression
    assert main(["compare", a, b, "--fail-on", "default:NDCG@10"]) == 2  # metric not in the reports
    assert main(["compare", a, b, "--fail-on", "default"]) == 2
    old = json.loads(Path(a).read_text())
    old["questions"] = []
    assert main(["compare", _write_json(tmp_path / "v1.json", old), b]) == 2
    assert "no per-question results" in capsys.readouterr().err
    assert main(["compare", str(tmp_path / "missing.json"), b]) == 2


def _write_json(path: Path, obj: object) -> str:
    path.write_text(json.dumps(obj))
    return str(path)


def test_table_prints_a_report_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "a.json", _report({"vector-only": [1.0] * 20}))
    assert main(["table", path]) == 0
    assert "## falkmem benchmark: d" in capsys.readouterr().out
    assert main(["table", str(tmp_path / "missing.json")]) == 2
