"""Markdown tables of the paired statistics: deltas against the baseline, per class and per route.

Deltas are in points (×100) with their bootstrap 95 % CI; a ``*`` marks a CI that excludes 0
(on at least ``stats.MIN_N`` paired questions).
"""

from __future__ import annotations

from collections.abc import Sequence

from .report import ClassResult, SystemResult
from .stats import PairedDelta

DELTA_METRICS = ("R@2", "R@5", "R@10", "all@5", "RR", "NDCG@10", "sR@5", "sR@10")
LABELS = {"RR": "MRR"}


def label(metric: str) -> str:
    """Column name of a metric (``RR`` is shown as ``MRR``)."""
    return LABELS.get(metric, metric)


def fmt_delta(d: PairedDelta | None) -> str:
    """``+6.0 [+2.0, +10.0]*`` (points; ``*`` when the CI excludes 0), ``–`` when missing."""
    if d is None:
        return "–"
    mark = "*" if d.significant else ""
    return f"{100 * d.delta:+.1f} [{100 * d.ci_low:+.1f}, {100 * d.ci_high:+.1f}]{mark}"


def fmt_p(d: PairedDelta | None) -> str:
    """The Wilcoxon p-value, 3 significant digits."""
    return "–" if d is None else f"{d.p_wilcoxon:.3g}"


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    return "\n".join([_row(head), _row(["---"] * len(head)), *(_row(r) for r in rows)])


def paired_table(systems: Sequence[SystemResult]) -> str:
    """Every system against the baseline: delta [CI] per metric, Wilcoxon p of R@5 and R@10."""
    shown = [m for m in DELTA_METRICS if any(m in s.vs_baseline for s in systems)]
    head = ["tenant", "system", "n", *[f"Δ{label(m)}" for m in shown], "p R@5", "p R@10"]
    rows = []
    for s in systems:
        if not s.vs_baseline:
            continue
        vs = s.vs_baseline
        n = next(iter(vs.values())).n
        rows.append([s.tenant, s.system, n, *[fmt_delta(vs.get(m)) for m in shown], fmt_p(vs.get("R@5")),
                     fmt_p(vs.get("R@10"))])  # fmt: skip
    return table(head, rows)


def _class_cells(c: ClassResult, metrics: Sequence[str]) -> list[object]:
    out: list[object] = []
    for m in metrics:
        value = c.metrics.get(m)
        out += ["–" if value is None else f"{100 * value:.1f}", fmt_delta(c.vs_baseline.get(m))]
    return out


def class_table(systems: Sequence[SystemResult], facet: str) -> str:
    """One row per (tenant, class of ``facet``, system): n, R@5 and R@10 with their deltas."""
    metrics = [m for m in ("R@5", "R@10", "sR@5", "sR@10")
               if any(m in c.metrics for s in systems for c in s.by_class.get(facet, {}).values())]  # fmt: skip
    head = ["tenant", facet, "system", "n"]
    for m in metrics:
        head += [m, f"Δ{m}"]
    rows = []
    for tenant in dict.fromkeys(s.tenant for s in systems):
        mine = [s for s in systems if s.tenant == tenant]
        classes = list(dict.fromkeys(c for s in mine for c in s.by_class.get(facet, {})))
        for cls in classes:
            for s in mine:
                c = s.by_class.get(facet, {}).get(cls)
                if c is not None:
                    rows.append([tenant, cls, s.system, c.n, *_class_cells(c, metrics)])
    return table(head, rows)


__all__ = ["class_table", "fmt_delta", "fmt_p", "label", "paired_table", "table"]
