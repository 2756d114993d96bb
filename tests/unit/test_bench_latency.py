"""``python -m benchmarks.latency``: its percentile and its argument check (the measurement itself
runs against a stored dataset; RESULTS.md quotes it)."""

from __future__ import annotations

import pytest

from benchmarks.latency import _pct, main


def test_percentiles_of_the_sorted_values() -> None:
    xs = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert _pct(xs, 50) == 3.0
    assert _pct(xs, 95) == 5.0
    assert _pct(xs, 0) == 1.0


def test_reps_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--dataset", "longmemeval", "--path", "nowhere", "--reps", "0"])
    assert exc.value.code == 2
    assert "--reps must be at least 1" in capsys.readouterr().err


def test_a_settings_override_reads_json_values() -> None:
    from benchmarks.latency import _override

    assert _override("graph.walk_depth=0") == ("graph.walk_depth", 0)
    assert _override("fusion.method=rrf") == ("fusion.method", "rrf")
    assert _override('off=["links"]') == ("off", ["links"])
    with pytest.raises(ValueError, match="KEY=VALUE"):
        _override("graph_walk_depth")


def test_context_takes_no_override(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--dataset", "musique", "--path", "nowhere", "--context", "300", "--vs", "graph.walk_depth=0"])
    assert exc.value.code == 2
    assert "--context takes a positive budget and no --vs" in capsys.readouterr().err
