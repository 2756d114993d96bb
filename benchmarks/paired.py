"""Per-question results → paired deltas against a baseline, overall and per class of question.

Questions are paired by ``(tenant, question id)``; a system and its baseline are compared only
on the questions both answered. Classes: the dataset's ``category`` (MuSiQue's ``2hop``…,
LongMemEval's question type), the ``hops`` count and the ``route`` the system took.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from .metrics import mean
from .report import ClassResult, QuestionResult
from .stats import PairedDelta, bootstrap_ci, paired_delta

METRICS = ("R@2", "R@5", "R@10", "all@5", "all@10", "RR", "NDCG@10", "sR@2", "sR@5", "sR@10")
"""Every per-question metric, in table order (``sR@k`` only where questions have gold sessions)."""
CLASS_METRICS = ("R@5", "R@10", "sR@5", "sR@10")
"""The metrics broken down per class (each delta costs a bootstrap)."""
FACETS = ("category", "hops", "route")
ALIASES = {"MRR": "RR", "NDCG": "NDCG@10", "ndcg@10": "NDCG@10", "mrr": "RR"}

Key = tuple[str, str]


def key(q: QuestionResult) -> Key:
    """How a question is matched across systems and runs: (tenant, question id)."""
    return (q.tenant, q.id)


def metric_name(name: str) -> str:
    """The per-question key of a metric name (``MRR`` → ``RR``)."""
    return ALIASES.get(name, name)


def present(results: Iterable[QuestionResult], metrics: Sequence[str] = METRICS) -> list[str]:
    """The metrics of ``metrics`` that every result carries (in that order)."""
    rs = list(results)
    return [m for m in metrics if rs and all(m in r.metrics for r in rs)]


def facet(q: QuestionResult, name: str) -> str:
    """The class of a question in one facet."""
    if name == "category":
        return q.category
    if name == "hops":
        return f"{q.hops}-hop"
    if name == "route":
        return q.route
    raise ValueError(f"unknown facet {name!r}; use one of {', '.join(FACETS)}")


def paired(
    results: Sequence[QuestionResult], baseline: Sequence[QuestionResult]
) -> list[tuple[QuestionResult, QuestionResult]]:
    """(system, baseline) results of the same questions, in the system's order."""
    base = {key(b): b for b in baseline}
    return [(r, base[key(r)]) for r in results if key(r) in base]


def deltas(
    pairs: Sequence[tuple[QuestionResult, QuestionResult]], metrics: Sequence[str], *, baseline_name: str
) -> dict[str, PairedDelta]:
    """Metric → system minus baseline over ``pairs`` (metrics missing on either side are skipped)."""
    out: dict[str, PairedDelta] = {}
    if not pairs:
        return out
    for m in metrics:
        if all(m in a.metrics and m in b.metrics for a, b in pairs):
            out[m] = paired_delta([a.metrics[m] for a, _ in pairs], [b.metrics[m] for _, b in pairs],
                                  baseline_name=baseline_name)  # fmt: skip
    return out


def cis(results: Sequence[QuestionResult], metrics: Sequence[str]) -> dict[str, list[float]]:
    """Metric → bootstrap 95 % CI of its mean over ``results``."""
    return {m: list(bootstrap_ci([r.metrics[m] for r in results])) for m in present(results, metrics)}


def by_class(
    results: Sequence[QuestionResult], baseline: Sequence[QuestionResult] | None, *, baseline_name: str
) -> dict[str, dict[str, ClassResult]]:
    """Facet → class → the means of ``CLASS_METRICS`` and (with a baseline) their paired deltas."""
    metrics = present(results, CLASS_METRICS)
    out: dict[str, dict[str, ClassResult]] = {}
    for name in FACETS:
        groups: dict[str, list[QuestionResult]] = defaultdict(list)
        for r in results:
            groups[facet(r, name)].append(r)
        out[name] = {}
        for cls in sorted(groups):
            rs = groups[cls]
            vs = deltas(paired(rs, baseline), metrics, baseline_name=baseline_name) if baseline else {}
            out[name][cls] = ClassResult(n=len(rs), metrics={m: mean(r.metrics[m] for r in rs) for m in metrics},
                                         vs_baseline=vs)  # fmt: skip
    return out


__all__ = [
    "CLASS_METRICS",
    "FACETS",
    "METRICS",
    "by_class",
    "cis",
    "deltas",
    "facet",
    "key",
    "metric_name",
    "paired",
    "present",
]
