"""Paired statistics on per-question metrics: bootstrap CIs of the mean and the Wilcoxon signed-rank test.

On 100 questions one question is one point of recall; these tell a difference from noise.
``paired_delta`` compares a system with a baseline on the same questions: the mean difference,
its paired bootstrap 95 % CI (seeded, 10,000 resamples) and the two-sided Wilcoxon p-value.
SciPy computes the p-value when installed; the fallback here is tested against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel

RESAMPLES = 10_000
SEED = 20_260_101
ALPHA = 0.05
MIN_N = 10
"""Fewer paired questions than this are never marked significant: a bootstrap of 1–9 values is no evidence."""
_EXACT_MAX_N = 50
_CHUNK = 2_000


class PairedDelta(BaseModel):
    """A system minus a baseline on the same questions, for one metric."""

    baseline: str
    n: int
    delta: float
    """Mean of the per-question differences (system − baseline)."""
    ci_low: float
    ci_high: float
    """Paired bootstrap 95 % CI of ``delta``."""
    p_wilcoxon: float
    """Two-sided Wilcoxon signed-rank p-value (zeros dropped; 1.0 when every difference is 0)."""

    @property
    def significant(self) -> bool:
        """True when the CI excludes 0 (and at least ``MIN_N`` questions were paired)."""
        return self.n >= MIN_N and (self.ci_low > 0 or self.ci_high < 0)


def _mean(resampled: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return resampled.mean(axis=1)


def bootstrap_ci(
    values: npt.ArrayLike,
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    alpha: float = ALPHA,
    statistic: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]] = _mean,
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of ``values`` (for paired data: of the differences).

    ``statistic`` computes another one from a batch of resamples: it gets an array of shape
    ``(batch, n, ...)`` (``values``' rows drawn with replacement; a row may hold a pair) and
    returns one value per resample, e.g. ``lambda r: np.median(r, axis=1)``."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    stats = np.empty(resamples)
    for start in range(0, resamples, _CHUNK):
        stop = min(start + _CHUNK, resamples)
        idx = rng.integers(0, len(x), size=(stop - start, len(x)))
        stats[start:stop] = statistic(x[idx])
    lo, hi = np.quantile(stats, [alpha / 2, 1 - alpha / 2])
    return (float(lo), float(hi))


def _ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks (1-based) of ``values`` and the sizes of their tie groups."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(values.size, dtype=np.float64)
    sorted_v = values[order]
    ties: list[int] = []
    i = 0
    while i < values.size:
        j = i
        while j + 1 < values.size and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j + 2) / 2
        ties.append(j - i + 1)
        i = j + 1
    return ranks, np.asarray(ties, dtype=np.float64)


def _exact_counts(n: int) -> np.ndarray:
    """Number of sign assignments of ranks 1..n giving each W+ = 0..n(n+1)/2."""
    counts = np.zeros(n * (n + 1) // 2 + 1, dtype=np.float64)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    return counts


def _nonzero(diffs: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The non-zero differences, rounded to 12 decimals so float noise (2/3 − 1/3 vs 1/3) makes no false ties."""
    d: npt.NDArray[np.float64] = np.round(np.asarray(diffs, dtype=np.float64), 12)
    out: npt.NDArray[np.float64] = d[d != 0]
    return out


def wilcoxon_method(diffs: npt.ArrayLike) -> str:
    """``exact`` when at most 50 non-zero differences with no ties in their sizes, else ``asymptotic``."""
    d = _nonzero(diffs)
    return "exact" if d.size <= _EXACT_MAX_N and np.unique(np.abs(d)).size == d.size else "asymptotic"


def wilcoxon_p_fallback(diffs: npt.ArrayLike) -> float:
    """Two-sided Wilcoxon signed-rank p-value without SciPy (zeros dropped, no continuity correction).

    Exact null distribution when ``wilcoxon_method`` says so; otherwise the normal
    approximation with the tie correction of the variance (as SciPy's ``asymptotic``).
    """
    d = _nonzero(diffs)
    n = d.size
    if n == 0:
        return 1.0
    ranks, ties = _ranks(np.abs(d))
    r_plus = float(ranks[d > 0].sum())
    if wilcoxon_method(d) == "exact":
        counts = _exact_counts(n)
        total = 2.0**n
        w = round(r_plus)
        cdf = counts[: w + 1].sum() / total
        sf = counts[w:].sum() / total
        return float(min(1.0, 2 * min(cdf, sf)))
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - float((ties**3 - ties).sum()) / 48
    if var <= 0:
        return 1.0
    z = (r_plus - mean) / math.sqrt(var)
    return float(math.erfc(abs(z) / math.sqrt(2)))


def wilcoxon_p(diffs: npt.ArrayLike) -> float:
    """Two-sided Wilcoxon signed-rank p-value: SciPy when installed (same method choice), else the fallback."""
    d = _nonzero(diffs)
    if d.size == 0:
        return 1.0
    try:
        from scipy.stats import wilcoxon  # type: ignore[import-untyped]
    except ImportError:
        return wilcoxon_p_fallback(d)
    res = wilcoxon(d, zero_method="wilcox", correction=False, method=wilcoxon_method(d))
    return float(res.pvalue)


def paired_delta(
    system: npt.ArrayLike, baseline: npt.ArrayLike, *, baseline_name: str, seed: int = SEED
) -> PairedDelta:
    """Mean of ``system − baseline`` over paired questions, its bootstrap CI and the Wilcoxon p-value."""
    a, b = np.asarray(system, dtype=np.float64), np.asarray(baseline, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    diffs = a - b
    lo, hi = bootstrap_ci(diffs, seed=seed)
    return PairedDelta(baseline=baseline_name, n=int(diffs.size), delta=float(diffs.mean()) if diffs.size else 0.0,
                       ci_low=lo, ci_high=hi, p_wilcoxon=wilcoxon_p(diffs))  # fmt: skip


__all__ = [
    "PairedDelta",
    "bootstrap_ci",
    "paired_delta",
    "wilcoxon_method",
    "wilcoxon_p",
    "wilcoxon_p_fallback",
]
