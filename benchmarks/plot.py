"""PNG plot: Recall@5 against p50 latency for every system, one panel per tenant, Pareto front marked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .metrics import pareto_front
from .report import SystemResult

_GROUP_COLOURS = {"baseline": "tab:gray", "router": "tab:blue", "hybrid": "tab:red", "graph-weight": "tab:purple",
                  "overfetch": "tab:green", "rerank": "tab:orange"}  # fmt: skip


def plot(systems: Sequence[SystemResult], path: Path, *, title: str) -> None:
    """Draw the recall/latency scatter of ``systems`` into ``path`` (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tenants = list(dict.fromkeys(s.tenant for s in systems))
    fig, axes = plt.subplots(1, len(tenants), figsize=(8 * len(tenants), 6), squeeze=False)
    for ax, tenant in zip(axes[0], tenants, strict=True):
        rows = [s for s in systems if s.tenant == tenant]
        pts = [(s.latency_ms.get("total", {}).get("p50", 0.0), s.recall["@5"]) for s in rows]
        front = pareto_front(pts)
        for i, (s, (x, y)) in enumerate(zip(rows, pts, strict=True)):
            on_front = i in front
            ax.scatter([x], [y], s=70 if on_front else 35, color=_GROUP_COLOURS.get(s.group, "black"),
                       edgecolors="black" if on_front else "none", zorder=3)  # fmt: skip
            ax.annotate(s.system, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.plot(
            [pts[i][0] for i in front],
            [pts[i][1] for i in front],
            "k--",
            lw=1,
            label="Pareto front",
            zorder=2,
        )
        for group, colour in _GROUP_COLOURS.items():
            if any(s.group == group for s in rows):
                ax.scatter([], [], color=colour, label=group)
        ax.set_xlabel("p50 latency (ms, timings_ms.total)")
        ax.set_ylabel("Recall@5")
        ax.set_title(tenant)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
