"""Fusion of per-channel candidate lists: score-level fusion (the default) and reciprocal rank fusion."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ..errors import ConfigError, InputError

__all__ = ["DEFAULT_RRF_K", "Candidate", "Fused", "fuse_scores", "reliabilities", "rrf", "sort_key"]

DEFAULT_RRF_K = 60
"""The RRF constant ``k`` in ``1 / (k + rank)`` (Cormack et al., SIGIR 2009)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One hit from one retrieval channel: ``score`` higher-is-better and finite, ``rank`` its
    1-based position in the channel."""

    id: str
    score: float
    channel: str
    rank: int

    def __post_init__(self) -> None:
        if self.rank < 1:
            raise InputError("rank", "must be 1 or more (1 = best in its channel)")
        if not math.isfinite(self.score):
            raise InputError("score", "must be a finite number")


@dataclass(frozen=True, slots=True)
class Fused:
    """One fused candidate: its fused ``score``, its rank and original score in each channel that
    returned it (read-only), and the reranker's score when it was reranked."""

    id: str
    score: float
    ranks: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    scores: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    rerank_score: float | None = None

    @property
    def best_rank(self) -> int:
        """Its best (smallest) rank in any channel; a very large number when it has none."""
        return min(self.ranks.values(), default=2**31 - 1)


def sort_key(item: Fused) -> tuple[float, int, str]:
    """Score desc, then best single-channel rank, then id: a total order, so equal inputs give
    the same list whatever order the channels or candidates came in."""
    return (-item.score, item.best_rank, item.id)


def _check_weights(weights: Mapping[str, float] | None) -> Mapping[str, float]:
    for channel, weight in (weights or {}).items():
        if not (math.isfinite(weight) and weight >= 0.0):
            raise ConfigError(
                f"fusion weight for channel {channel!r} must be a finite number >= 0; "
                "use 0 to ignore a channel"
            )
    return weights or {}


def _best_per_channel(hits: Sequence[Candidate]) -> dict[str, Candidate]:
    """One candidate per id in a channel: the best-ranked one (then the higher score)."""
    best: dict[str, Candidate] = {}
    for hit in hits:
        seen = best.get(hit.id)
        if seen is None or (hit.rank, -hit.score) < (seen.rank, -seen.score):
            best[hit.id] = hit
    return best


def _fuse(
    best: Mapping[str, Mapping[str, Candidate]],
    weights: Mapping[str, float],
    contribution: Mapping[str, Mapping[str, float]],
) -> list[Fused]:
    """Sum the weighted contributions per id and sort (an id a channel scores but did not return,
    a graph hit's cosine, has no rank there)."""
    ranks: dict[str, dict[str, int]] = {}
    raw: dict[str, dict[str, float]] = {}
    totals: dict[str, float] = {}
    for channel in sorted(contribution):  # fixed order: float sums do not depend on input order
        weight = weights.get(channel, 1.0)
        for doc_id, value in contribution[channel].items():
            totals[doc_id] = totals.get(doc_id, 0.0) + weight * value
            ranks.setdefault(doc_id, {})
            raw.setdefault(doc_id, {})
        for doc_id, hit in best.get(channel, {}).items():
            ranks[doc_id][channel] = hit.rank
            raw[doc_id][channel] = hit.score
    fused = [
        Fused(doc_id, total, MappingProxyType(ranks[doc_id]), MappingProxyType(raw[doc_id]))
        for doc_id, total in totals.items()
    ]
    return sorted(fused, key=sort_key)


def rrf(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    k: int = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Reciprocal rank fusion: ``score(d) = sum over channels c of w_c / (k + rank_c(d))``; a
    channel without a weight weighs 1, an id listed twice in one channel counts at its best rank.

    Example:
        >>> v = [Candidate("a", 0.9, "vector", 1), Candidate("b", 0.8, "vector", 2)]
        >>> kw = [Candidate("b", 7.0, "keyword", 1)]
        >>> [f.id for f in rrf({"vector": v, "keyword": kw})]
        ['b', 'a']
    """
    if k < 0:
        raise ConfigError(f"RRF constant k must be >= 0 (got {k}); 60 is the usual value")
    checked = _check_weights(weights)
    best = {channel: _best_per_channel(hits) for channel, hits in channels.items()}
    contribution = {
        channel: {doc_id: 1.0 / (k + hit.rank) for doc_id, hit in hits.items()}
        for channel, hits in best.items()
    }
    return _fuse(best, checked, contribution)


def fuse_scores(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    similarity: Mapping[str, float] | None = None,
    weights: Mapping[str, float] | None = None,
    units: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Score-level fusion on absolute scales (docs/decisions/0001): ``score(d) = sim(d) + sum over
    other channels c of w_c * s_c(d) / unit_c``. ``sim``: the cosine (the vector channel's, else
    ``similarity``, else the weakest vector hit's); ``unit_c``: BM25's is the query's idf mass,
    the others' 1 (as is a unit <= 0). A weight defaults to 1."""
    checked = _check_weights(weights)
    best = {name: _best_per_channel(hits) for name, hits in channels.items()}
    vec = best.get("vector", {})
    sims = {i: h.score for i, h in vec.items()}
    for i, sim in (similarity or {}).items():
        sims.setdefault(i, sim)
    ids = set().union(*best.values()) if best else set()
    floor = min((h.score for h in vec.values()), default=min(sims.values(), default=0.0))
    contribution: dict[str, dict[str, float]] = {"vector": {i: sims.get(i, floor) for i in ids}}
    for name, hits in best.items():
        if name != "vector":
            unit = (units or {}).get(name, 1.0)
            unit = unit if unit > 0 and math.isfinite(unit) else 1.0
            contribution[name] = {i: max(h.score, 0.0) / unit for i, h in hits.items()}
    return _fuse(best, {**checked, "vector": 1.0}, contribution)


def standout(hits: Sequence[Candidate], *, reference: int = 10) -> float:
    """How far a channel's first candidate stands above its ``reference``-th, as a share of the
    first's score (0: a flat list); 1 for a list shorter than that."""
    if len(hits) < reference:
        return 1.0
    top, ref = hits[0].score, hits[reference - 1].score
    return max(0.0, min(1.0, (top - ref) / top)) if top > 0 else 0.0


def reliabilities(
    channels: Mapping[str, Sequence[Candidate]], *, strength: float = 1.0, gap: float = 0.4
) -> dict[str, float]:
    """What each non-vector channel's fusion weight is multiplied by in this search: the keyword
    channel's ``(1 - strength) + strength * min(1, standout / gap)`` (a flat list matched words
    many memories share: its order says little), the others' 1."""
    out = {name: 1.0 for name in channels if name != "vector"}
    if strength > 0 and channels.get("keyword"):
        share = min(1.0, standout(channels["keyword"]) / gap) if gap > 0 else 1.0
        out["keyword"] = (1.0 - min(strength, 1.0)) + min(strength, 1.0) * share
    return out
