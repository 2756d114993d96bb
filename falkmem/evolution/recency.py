"""Optional recency weighting of ranked candidates (off by default; a setting turns it on)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..ranking.fusion import Fused

__all__ = ["recency_factor", "recency_weighted"]

_DAY = 86_400.0


def recency_factor(valid_at: float | None, *, now: float, half_life_days: float) -> float:
    """``0.5 ** (age / half_life)``: 1 for a memory valid from now, 0.5 at one half-life.

    Undated memories and ones valid from the future count as new (factor 1).
    """
    if valid_at is None:
        return 1.0
    age = max(0.0, now - float(valid_at)) / _DAY
    return float(0.5 ** (age / half_life_days))


def recency_weighted(
    ranked: Sequence[Fused],
    rows: Mapping[str, Mapping[str, Any]],
    *,
    weight: float,
    half_life_days: float,
    now: float,
) -> list[Fused]:
    """Blend each candidate's relevance with its recency and re-sort.

    Relevance is the fused score min-max scaled to [0, 1] over the candidates; when a reranker
    scored the head (its logits and the tail's fused scores are two scales) it is the rank
    position instead (first 1, last 0). The blend:
    ``(1 - weight) * relevance + weight * recency_factor``. The blended value replaces the
    score (and the rerank score, when set). Ties keep the previous order.

    Args:
        ranked: candidates, best first.
        rows: artifact rows by id (for ``valid_at``).
        weight: 0 (no effect) to 1 (recency only).
        half_life_days: age at which recency halves.
        now: the reference time (epoch seconds); ``as_of`` when searching the past.

    Returns:
        The candidates in their new order.
    """
    if weight <= 0 or not ranked:
        return list(ranked)
    if any(f.rerank_score is not None for f in ranked):
        # reranker logits for the head, fused scores for the tail: two scales, so relevance
        # comes from the rank instead (first = 1, last = 0)
        n = len(ranked)
        base = [1.0 - i / max(n - 1, 1) for i in range(n)]
    else:
        base = [f.score for f in ranked]
    lo, hi = min(base), max(base)
    span = (hi - lo) or 1.0
    scored: list[tuple[float, int, Fused]] = []
    for i, (f, b) in enumerate(zip(ranked, base, strict=True)):
        rel = (b - lo) / span if hi > lo else 1.0
        rec = recency_factor(rows.get(f.id, {}).get("valid_at"), now=now, half_life_days=half_life_days)
        blended = (1 - weight) * rel + weight * rec
        new = dataclasses.replace(
            f, score=blended, rerank_score=blended if f.rerank_score is not None else None
        )
        scored.append((-blended, i, new))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [f for _, _, f in scored]
