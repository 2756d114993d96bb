"""The scale benchmark's stream and report (``python -m benchmarks scale``), without a server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import scale_report, scale_stream
from benchmarks.datasets.base import MemoryItem


def _stream(n: int = 5) -> scale_stream.Stream:
    base = [MemoryItem(id=f"m{i}", text=f"turn {i}", session=f"s{i // 2}") for i in range(n)]
    q = scale_stream.ScaleQuestion(id="q1", text="turn 1?", source="x", gold_texts=frozenset({"turn 1"}))
    return scale_stream.Stream(base=base, questions=[q], source="chat")


def test_a_position_is_always_the_same_memory_and_copies_are_renamed() -> None:
    s = _stream()
    first = list(s.records(0, 12))
    again = list(s.records(3, 12))
    assert [r["id"] for r in first[3:]] == [r["id"] for r in again]
    assert [r["embedding"] for r in first[3:]] == [r["embedding"] for r in again]
    assert [r["id"] for r in first[5:7]] == ["c1/m0", "c1/m1"]
    assert first[5]["session"] == "c1/s0" and first[5]["text"] == first[0]["text"]
    assert np.allclose([np.linalg.norm(r["embedding"]) for r in first], 1.0, atol=1e-5)


def test_raw_bytes_count_text_and_a_float32_vector() -> None:
    s = _stream()
    assert s.raw_bytes(7) == sum(len(f"turn {i % 5}") for i in range(7)) + 7 * 384 * 4


def test_recall_counts_any_copy_of_an_evidence_text() -> None:
    s = _stream()
    copies = scale_stream.gold_present(s, 12)
    assert copies == {"turn 1": {"m1", "c1/m1", "c2/m1"}}
    gold = s.questions[0].gold_texts
    assert scale_stream.recall_at(["x", "c2/m1"], gold, copies, 2) == 1.0
    assert scale_stream.recall_at(["x", "y", "m1"], gold, copies, 2) == 0.0
    assert scale_stream.recall_at(["m1"], gold, {}, 10) is None  # nothing stored yet


def _point(n: int, default_p50: float, kw_p50: float, rate: float) -> dict[str, Any]:
    search = {
        "p50": default_p50,
        "p95": 2 * default_p50,
        "recall@10": 50.0,
        "hybrid_share": 1.0,
        "stages": {},
    }
    kw = {**search, "p50": kw_p50}
    return {
        "memories": n, "load_before": [1.0], "load_after": [1.2], "raw_bytes": n * 2000,
        "ingest_segment": {"rate_per_s": rate}, "ingest_slice": {"rate_per_s": rate},
        "searches": {"keyword alone": kw, "default": search},
        "keyword_channel": {"unbounded": {"p50": kw_p50, "p95": kw_p50, "recall@10": 40.0,
                                          "same_top10_as_unbounded": 3, "questions": 3}},
        "memory": {"rss": n * 10_000, "used_memory": n * 8_000, "disk": {"rdb": 0, "aof": n * 5_000, "total": n * 5_000}},
        "reopen": {"reopen_s": 1.5, "open_s": 1.4, "count_s": 0.1, "first_search_ms": 300, "second_search_ms": 30},
    }  # fmt: skip


def test_the_report_has_the_done_when_ratios() -> None:
    report = {"source": "chat", "vectors": "random", "git_commit": "abc", "command": "python -m benchmarks scale",
              "points": [_point(10_000, 40.0, 20.0, 100.0), _point(100_000, 50.0, 25.0, 90.0)]}  # fmt: skip
    text = scale_report.render(report)
    assert "| 100,000 | 1.25 | 1.25 | 0.90 |" in text
    assert "| 10,000 | 100.0 | 100.0 |" in text
    assert "unbounded: p50 / p95 ms" in text


def test_the_plot_is_written(tmp_path: Path) -> None:
    report = {"source": "chat", "vectors": "random", "points": [_point(10_000, 40.0, 20.0, 100.0), _point(30_000, 45.0, 22.0, 95.0)]}  # fmt: skip
    scale_report.plot(report, tmp_path / "scale.png")
    assert (tmp_path / "scale.png").stat().st_size > 0
