"""Pure metric functions of the benchmark harness."""

from __future__ import annotations

import pytest

from benchmarks.metrics import (
    all_recall_at_k,
    hop_bucket,
    latency_summary,
    mean,
    pareto_front,
    percentile,
    rate,
    recall_at_k,
    reciprocal_rank,
    shares,
)  # fmt: skip


def test_recall_at_k_counts_gold_in_top_k() -> None:
    ranked = ["a", "b", "c", "d"]
    assert recall_at_k(ranked, {"b", "d"}, 2) == 0.5
    assert recall_at_k(ranked, {"b", "d"}, 4) == 1.0
    assert recall_at_k(ranked, {"x"}, 4) == 0.0
    assert recall_at_k(ranked, set(), 4) == 0.0
    assert recall_at_k(ranked, ["b", "b"], 2) == 1.0  # duplicates in gold count once


def test_all_recall_needs_the_whole_chain() -> None:
    assert all_recall_at_k(["a", "b", "c"], {"a", "c"}, 3) == 1.0
    assert all_recall_at_k(["a", "b", "c"], {"a", "c"}, 2) == 0.0
    assert all_recall_at_k(["a"], set(), 1) == 0.0


def test_reciprocal_rank_of_first_gold() -> None:
    assert reciprocal_rank(["x", "y", "g"], {"g"}) == pytest.approx(1 / 3)
    assert reciprocal_rank(["g"], {"g"}) == 1.0
    assert reciprocal_rank(["x"], {"g"}) == 0.0


def test_percentile_interpolates_like_numpy() -> None:
    vals = [1.0, 2.0, 3.0, 4.0]
    assert percentile(vals, 50) == 2.5
    assert percentile(vals, 0) == 1.0
    assert percentile(vals, 100) == 4.0
    assert percentile([5.0], 99) == 5.0
    assert percentile([], 50) == 0.0
    with pytest.raises(ValueError):
        percentile(vals, 101)


def test_latency_summary_and_helpers() -> None:
    s = latency_summary([10.0] * 99 + [1000.0])
    assert s["p50"] == 10.0 and s["n"] == 100 and s["p99"] > 10.0
    assert mean([]) == 0.0 and mean([1.0, 3.0]) == 2.0
    assert shares(["vector", "hybrid", "vector", "vector"]) == {"hybrid": 0.25, "vector": 0.75}
    assert shares([]) == {}
    assert rate(100, 2.0) == 50.0 and rate(5, 0.0) == 0.0
    assert hop_bucket(1) == "1-hop" and hop_bucket(3) == "2+hop"


def test_pareto_front_keeps_undominated_points() -> None:
    # (latency, recall): b dominates c; a is fastest; d is best recall
    pts = [(1.0, 0.5), (2.0, 0.7), (3.0, 0.6), (5.0, 0.9), (2.0, 0.7)]
    front = pareto_front(pts)
    assert 0 in front and 3 in front
    assert 2 not in front
    assert 1 in front and 4 in front  # equal points do not dominate each other
    assert [pts[i][0] for i in front] == sorted(pts[i][0] for i in front)
