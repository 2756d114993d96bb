"""Paired statistics of the benchmark harness: bootstrap CIs, Wilcoxon (against SciPy), NDCG, per-class deltas."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.metrics import ndcg_at_k, question_metrics
from benchmarks.paired import by_class, deltas, paired
from benchmarks.report import QuestionResult
from benchmarks.stats import bootstrap_ci, paired_delta, wilcoxon_method, wilcoxon_p, wilcoxon_p_fallback


def _diffs(rng: np.random.Generator, n: int, tied: bool) -> np.ndarray:
    if tied:  # recall-like differences: many ties and zeros
        return rng.choice(np.array([-1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 1 / 3, -2 / 3]), size=n)
    return rng.normal(0.2, 1.0, size=n)


@pytest.mark.parametrize("tied", [False, True])
def test_wilcoxon_fallback_matches_scipy_on_random_pairs(tied: bool) -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(7)
    methods = set()
    for _ in range(200):
        n = int(rng.integers(2, 90))
        a = rng.random(n)
        b = a - _diffs(rng, n, tied)  # pairs (a, b) with a − b = the drawn differences
        d = np.round(a - b, 12)
        if not (d != 0).any():
            continue
        method = wilcoxon_method(d)
        methods.add(method)
        expected = stats.wilcoxon(d[d != 0], zero_method="wilcox", correction=False, method=method).pvalue
        assert wilcoxon_p_fallback(d) == pytest.approx(expected, abs=1e-6)
        assert wilcoxon_p(d) == pytest.approx(expected, abs=1e-6)
    assert methods == {"exact", "asymptotic"}  # both paths were checked


def test_wilcoxon_exact_small_case_by_hand() -> None:
    # d = 1, 2, 3 all positive: W+ = 6 is the largest of 2^3 outcomes, two-sided p = 2/8
    assert wilcoxon_p_fallback([1.0, 2.0, 3.0]) == pytest.approx(0.25)
    assert wilcoxon_p_fallback([0.0, 0.0]) == 1.0 and wilcoxon_p([]) == 1.0


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = np.random.default_rng(1).random(50)
    lo, hi = bootstrap_ci(values)
    assert (lo, hi) == bootstrap_ci(values)
    assert lo < values.mean() < hi
    assert bootstrap_ci(values, seed=2) != (lo, hi)


def test_bootstrap_of_another_statistic_and_of_pairs() -> None:
    # a heavy tail moves the mean, not the median
    values = np.array([1.0] * 40 + [100.0] * 5)
    lo, hi = bootstrap_ci(values, statistic=lambda r: np.median(r, axis=1))
    assert (lo, hi) == (1.0, 1.0) and bootstrap_ci(values)[0] > 1.0
    # rows are pairs: the difference of the two columns' medians
    pairs = np.column_stack([np.full(30, 10.0), np.full(30, 12.5)])
    diff = bootstrap_ci(
        pairs, statistic=lambda r: np.median(r[..., 1], axis=1) - np.median(r[..., 0], axis=1)
    )
    assert diff == (2.5, 2.5)


def test_planted_difference_is_significant_and_an_identical_system_is_not() -> None:
    rng = np.random.default_rng(3)
    base = rng.choice([0.5, 1.0], size=40)
    worse = base.copy()
    worse[::2] = 0.0  # made worse on half the questions
    d = paired_delta(worse, base, baseline_name="b")
    assert d.delta < 0 and d.ci_high < 0 and d.significant and d.p_wilcoxon < 0.001
    same = paired_delta(base, base, baseline_name="b")
    assert (same.delta, same.ci_low, same.ci_high, same.p_wilcoxon) == (0.0, 0.0, 0.0, 1.0)
    assert not same.significant
    noisy = paired_delta(base[::-1], base, baseline_name="b")  # same values, shuffled pairing
    assert noisy.ci_low <= 0 <= noisy.ci_high and not noisy.significant
    tiny = paired_delta([0.0] * 4, [1.0] * 4, baseline_name="b")  # CI [-1, -1] but 4 questions prove nothing
    assert tiny.ci_high < 0 and not tiny.significant
    with pytest.raises(ValueError, match="same length"):
        paired_delta([1.0], [1.0, 0.0], baseline_name="b")


def test_ndcg_and_question_metrics() -> None:
    assert ndcg_at_k(["g1", "x", "g2"], {"g1", "g2"}, 10) == pytest.approx(
        (1 + 1 / np.log2(4)) / (1 + 1 / np.log2(3))
    )
    assert ndcg_at_k(["x"], {"g"}, 10) == 0.0 and ndcg_at_k(["g"], {"g"}, 10) == 1.0
    m = question_metrics(["a:1", "b:0", "c:2"], {"c:2"}, sessions=["a", "b", "c"], gold_sessions={"c"})
    assert m["R@2"] == 0.0 and m["R@5"] == 1.0 and m["RR"] == pytest.approx(1 / 3)
    assert m["sR@2"] == 0.0 and m["sR@5"] == 1.0 and m["all@5"] == 1.0
    assert "sR@5" not in question_metrics(["a"], {"a"})


def _qr(i: int, system: str, r5: float, route: str = "vector") -> QuestionResult:
    return QuestionResult(tenant="t", group="g", system=system, id=f"q{i}", text=f"question {i}?",
                          category="even" if i % 2 == 0 else "odd", hops=1 + i % 3, gold=["m"], ranked=["m"],
                          route=route, latency_ms=1.0, e2e_ms=1.0,
                          metrics={"R@5": r5, "R@10": r5, "RR": r5})  # fmt: skip


def test_deltas_and_classes_pair_questions_by_id() -> None:
    base = [_qr(i, "base", 1.0) for i in range(30)]
    worse = [_qr(i, "worse", 0.0 if i % 2 == 0 else 1.0, route="hybrid" if i < 10 else "vector")
             for i in reversed(range(30))]  # fmt: skip
    pairs = paired(worse, base[:20])  # only the questions both have
    assert len(pairs) == 20 and all(a.id == b.id for a, b in pairs)
    ds = deltas(paired(worse, base), ["R@5", "NDCG@10"], baseline_name="base")
    assert set(ds) == {"R@5"} and ds["R@5"].delta == pytest.approx(-0.5) and ds["R@5"].significant
    classes = by_class(worse, base, baseline_name="base")
    assert classes["category"]["even"].vs_baseline["R@5"].delta == -1.0
    assert classes["category"]["odd"].vs_baseline["R@5"].delta == 0.0
    assert classes["category"]["even"].vs_baseline["R@5"].significant
    assert {c: r.n for c, r in classes["route"].items()} == {"hybrid": 10, "vector": 20}
    assert set(classes["hops"]) == {"1-hop", "2-hop", "3-hop"}
    assert by_class(base, None, baseline_name="base")["category"]["odd"].vs_baseline == {}
