"""PNG plot, one column per tenant (group): Recall@5 against p50 latency with 95 % CI error bars and the
Pareto front (top), and each system's R@5 delta against the baseline per class of question with its CI
(bottom)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .metrics import pareto_front
from .report import SystemResult

_GROUP_COLOURS = {"baseline": "tab:gray", "router": "tab:blue", "hybrid": "tab:red", "graph-weight": "tab:purple",
                  "overfetch": "tab:green", "rerank": "tab:orange"}  # fmt: skip
MAX_DELTA_SYSTEMS = 6
"""Systems drawn in the per-class panel (the first ones of the sweep, baseline excluded)."""


def _scatter(ax: Any, rows: Sequence[SystemResult], tenant: str) -> None:
    pts = [(s.latency_ms.get("total", {}).get("p50", 0.0), s.recall["@5"]) for s in rows]
    front = pareto_front(pts)
    for i, (s, (x, y)) in enumerate(zip(rows, pts, strict=True)):
        on_front = i in front
        colour = _GROUP_COLOURS.get(s.group, "black")
        ci = s.ci.get("R@5")
        if ci:
            ax.errorbar([x], [y], yerr=[[max(0.0, y - ci[0])], [max(0.0, ci[1] - y)]], color=colour, alpha=0.5,
                        capsize=3, lw=1, zorder=2)  # fmt: skip
        ax.scatter([x], [y], s=70 if on_front else 35, color=colour, edgecolors="black" if on_front else "none",
                   zorder=3)  # fmt: skip
        ax.annotate(s.system, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.plot(
        [pts[i][0] for i in front], [pts[i][1] for i in front], "k--", lw=1, label="Pareto front", zorder=2
    )
    for group, colour in _GROUP_COLOURS.items():
        if any(s.group == group for s in rows):
            ax.scatter([], [], color=colour, label=group)
    ax.set_xlabel("p50 latency (ms, timings_ms.total)")
    ax.set_ylabel("Recall@5 (95% CI)")
    ax.set_title(tenant)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")


def _deltas(ax: Any, rows: Sequence[SystemResult], facet: str, baseline: str) -> None:
    shown = [s for s in rows if s.vs_baseline][:MAX_DELTA_SYSTEMS]
    classes = list(dict.fromkeys(c for s in shown for c in s.by_class.get(facet, {})))
    width = 0.8 / max(1, len(shown))
    for j, s in enumerate(shown):
        xs, ys, lo, hi = [], [], [], []
        for i, cls in enumerate(classes):
            d = s.by_class.get(facet, {}).get(cls)
            delta = d.vs_baseline.get("R@5") if d is not None else None
            if delta is None:
                continue
            xs.append(i - 0.4 + width * (j + 0.5))
            ys.append(100 * delta.delta)
            lo.append(100 * (delta.delta - delta.ci_low))
            hi.append(100 * (delta.ci_high - delta.delta))
        ax.bar(xs, ys, width=width, yerr=[lo, hi], capsize=2, label=s.system, alpha=0.8)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(classes)))
    ax.set_xticklabels(
        [f"{c}\n(n={next((s.by_class[facet][c].n for s in shown if c in s.by_class.get(facet, {})), 0)})"
         for c in classes], fontsize=7)  # fmt: skip
    ax.set_ylabel(f"ΔR@5 vs {baseline} (points, 95% CI)")
    ax.set_title(f"ΔR@5 per {facet} (first {MAX_DELTA_SYSTEMS} systems)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def plot(
    systems: Sequence[SystemResult], path: Path, *, title: str, facet: str = "category", baseline: str = ""
) -> None:
    """Draw both panels of every tenant into ``path`` (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tenants = list(dict.fromkeys(s.tenant for s in systems))
    with_deltas = any(s.vs_baseline for s in systems)
    fig, axes = plt.subplots(2 if with_deltas else 1, len(tenants), figsize=(8 * len(tenants), 11 if with_deltas else 6),
                             squeeze=False)  # fmt: skip
    for col, tenant in enumerate(tenants):
        rows = [s for s in systems if s.tenant == tenant]
        _scatter(axes[0][col], rows, tenant)
        if with_deltas:
            _deltas(axes[1][col], rows, facet, baseline)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
