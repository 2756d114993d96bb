"""Pure metric functions: recall@k, all-recall@k, MRR, percentiles, route shares, rates, Pareto front."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence


def recall_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Share of the gold ids found in the first ``k`` ranked ids (0.0 when gold is empty)."""
    if not gold:
        return 0.0
    top = set(ranked[:k])
    return sum(1 for g in set(gold) if g in top) / len(set(gold))


def all_recall_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when every gold id is in the first ``k`` (the whole chain was found), else 0.0."""
    return 1.0 if gold and set(gold) <= set(ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str], gold: Collection[str]) -> float:
    """1 / rank of the first gold id found (0.0 when none is ranked)."""
    wanted = set(gold)
    for i, rid in enumerate(ranked, 1):
        if rid in wanted:
            return 1.0 / i
    return 0.0


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    vals = list(values)
    return sum(vals) / len(vals) if vals else 0.0


def percentile(values: Iterable[float], p: float) -> float:
    """The ``p``-th percentile (0..100) by linear interpolation between ranks (numpy's default)."""
    vals = sorted(values)
    if not vals:
        return 0.0
    if not 0 <= p <= 100:
        raise ValueError("p must be between 0 and 100")
    pos = (len(vals) - 1) * p / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)


def latency_summary(values: Iterable[float]) -> dict[str, float]:
    """``{"p50", "p95", "p99", "mean", "n"}`` of latencies in ms."""
    vals = list(values)
    return {
        "p50": round(percentile(vals, 50), 3),
        "p95": round(percentile(vals, 95), 3),
        "p99": round(percentile(vals, 99), 3),
        "mean": round(mean(vals), 3),
        "n": len(vals),
    }


def shares(labels: Iterable[str]) -> dict[str, float]:
    """Each label's share of the total (e.g. the share of queries per route), sorted by label."""
    counts = Counter(labels)
    total = sum(counts.values())
    return {k: counts[k] / total for k in sorted(counts)} if total else {}


def rate(count: int, seconds: float) -> float:
    """Items per second (0.0 when no time was measured)."""
    return count / seconds if seconds > 0 else 0.0


def pareto_front(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point beats: lower x (latency) and higher y (recall).

    A point is dominated when another is at least as good on both axes and better on one.
    The indices come back sorted by x.
    """
    front = []
    for i, (x, y) in enumerate(points):
        dominated = any(
            (x2 <= x and y2 >= y) and (x2 < x or y2 > y) for j, (x2, y2) in enumerate(points) if j != i
        )
        if not dominated:
            front.append(i)
    return sorted(front, key=lambda i: (points[i][0], -points[i][1]))


def hop_bucket(hops: int) -> str:
    """``1-hop`` or ``2+hop``: the split the router is judged on."""
    return "1-hop" if hops <= 1 else "2+hop"


def ndcg_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """NDCG@k with binary relevance: DCG of the gold ids in the top ``k`` over the best possible DCG."""
    wanted = set(gold)
    if not wanted:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, rid in enumerate(ranked[:k]) if rid in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return dcg / ideal


KS = (2, 5, 10)
"""The k of R@k."""


def question_metrics(
    ranked: Sequence[str],
    gold: Collection[str],
    *,
    sessions: Sequence[str] = (),
    gold_sessions: Collection[str] = (),
) -> dict[str, float]:
    """Every per-question metric: ``R@k``, ``all@5``, ``all@10``, ``RR``, ``NDCG@10`` and, with gold
    sessions, ``sR@k`` (share of gold sessions with a ranked turn in the top k)."""
    out = {f"R@{k}": recall_at_k(ranked, gold, k) for k in KS}
    out |= {f"all@{k}": all_recall_at_k(ranked, gold, k) for k in (5, 10)}
    out["RR"] = reciprocal_rank(ranked, gold)
    out["NDCG@10"] = ndcg_at_k(ranked, gold, 10)
    if gold_sessions:
        out |= {f"sR@{k}": recall_at_k(sessions, gold_sessions, k) for k in KS}
    return out
