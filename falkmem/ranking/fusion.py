"""Fusion of per-channel candidate lists: score-level fusion (the default) and reciprocal rank fusion."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ..errors import ConfigError
from .candidate import Candidate

__all__ = ["DEFAULT_RRF_K", "Fused", "fuse", "fuse_scores", "reliabilities", "rrf"]

DEFAULT_RRF_K = 60
"""The RRF constant ``k`` in ``1 / (k + rank)``.

60 is the value of Cormack, Clarke and Büttcher (SIGIR 2009), who found it near-optimal
across TREC runs, and the default of Elasticsearch, OpenSearch, RedisVL and graphiti. A large
``k`` flattens the curve, so an item ranked well by *several* channels beats one ranked first
by a single channel (rank 1 in one channel: 1/61 = 0.0164; rank 5 in two: 2/65 = 0.0308),
which is what hybrid retrieval wants. A small ``k`` (e.g. 1) lets each channel's top hit win.
"""


def _no_ranks() -> Mapping[str, int]:
    return MappingProxyType({})


def _no_scores() -> Mapping[str, float]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Fused:
    """One fused candidate.

    Attributes:
        id: the artifact id.
        score: the fused score, higher is better.
        ranks: its 1-based rank in each channel that returned it (read-only).
        scores: its original score in each channel that returned it (read-only).
        rerank_score: the reranker's score when it was reranked, else None.
    """

    id: str
    score: float
    ranks: Mapping[str, int] = field(default_factory=_no_ranks, hash=False)
    scores: Mapping[str, float] = field(default_factory=_no_scores, hash=False)
    rerank_score: float | None = None

    @property
    def best_rank(self) -> int:
        """Its best (smallest) rank in any channel; a very large number when it has none."""
        return min(self.ranks.values(), default=2**31 - 1)


def _sort_key(item: Fused) -> tuple[float, int, str]:
    # Score desc, then best single-channel rank, then id: a total order, so equal inputs give
    # the same list in every run whatever order the channels or candidates came in.
    return (-item.score, item.best_rank, item.id)


def _check_weights(weights: Mapping[str, float] | None) -> Mapping[str, float]:
    if weights is None:
        return {}
    for channel, weight in weights.items():
        if not (math.isfinite(weight) and weight >= 0.0):
            raise ConfigError(
                f"fusion weight for channel {channel!r} must be a finite number >= 0; "
                "use 0 to ignore a channel"
            )
    return weights


def _best_per_channel(hits: Sequence[Candidate]) -> dict[str, Candidate]:
    """One candidate per id in a channel: the best-ranked one (then the higher score)."""
    best: dict[str, Candidate] = {}
    for hit in hits:
        seen = best.get(hit.id)
        if seen is None or (hit.rank, -hit.score) < (seen.rank, -seen.score):
            best[hit.id] = hit
    return best


def _fuse(
    channels: Mapping[str, Sequence[Candidate]],
    weights: Mapping[str, float],
    contribution: Mapping[str, Mapping[str, float]],
    extra: set[str] | frozenset[str] = frozenset(),
) -> list[Fused]:
    """Sum the weighted per-channel contributions and build sorted ``Fused`` items.

    ``extra``: ids scored by a contribution without being a candidate of that channel (the
    dense similarity of a graph hit); they get the contribution but no rank in the channel.
    """
    ranks: dict[str, dict[str, int]] = {}
    raw: dict[str, dict[str, float]] = {}
    totals: dict[str, float] = {}
    for channel in sorted(channels):  # fixed order: float sums do not depend on input order
        weight = weights.get(channel, 1.0)
        best = _best_per_channel(channels[channel])
        for doc_id, hit in sorted(best.items()):
            ranks.setdefault(doc_id, {})[channel] = hit.rank
            raw.setdefault(doc_id, {})[channel] = hit.score
            totals[doc_id] = totals.get(doc_id, 0.0) + weight * contribution[channel][doc_id]
        for doc_id in sorted(set(extra) - set(best)):
            if doc_id in contribution.get(channel, {}):
                ranks.setdefault(doc_id, {})
                raw.setdefault(doc_id, {})
                totals[doc_id] = totals.get(doc_id, 0.0) + weight * contribution[channel][doc_id]
    fused = [
        Fused(
            id=doc_id,
            score=total,
            ranks=MappingProxyType(ranks[doc_id]),
            scores=MappingProxyType(raw[doc_id]),
        )
        for doc_id, total in totals.items()
    ]
    fused.sort(key=_sort_key)
    return fused


def rrf(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    k: int = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Reciprocal rank fusion: ``score(d) = sum over channels c of w_c / (k + rank_c(d))``.

    Only ranks matter, so channels whose scores live on different scales (cosine similarity,
    BM25, activation) fuse without calibration. The channel name is the mapping key (a
    candidate's own ``channel`` field is not consulted); each candidate's ``rank`` is used as
    given, and an id listed twice in one channel counts once, at its best rank.

    Args:
        channels: ``{channel name: candidates}``.
        k: the RRF constant, >= 0 (see :data:`DEFAULT_RRF_K`).
        weights: per-channel multipliers (>= 0); a channel without one weighs 1.0.

    Returns:
        Fused candidates, best first; ties broken by best single-channel rank, then id.

    Raises:
        ConfigError: ``k`` is negative or a weight is negative or not finite.

    Example:
        >>> v = [Candidate("a", 0.9, "vector", 1), Candidate("b", 0.8, "vector", 2)]
        >>> kw = [Candidate("b", 7.0, "keyword", 1)]
        >>> [f.id for f in rrf({"vector": v, "keyword": kw})]
        ['b', 'a']
    """
    if k < 0:
        raise ConfigError(f"RRF constant k must be >= 0 (got {k}); 60 is the usual value")
    checked = _check_weights(weights)
    contribution = {
        channel: {doc_id: 1.0 / (k + hit.rank) for doc_id, hit in _best_per_channel(hits).items()}
        for channel, hits in channels.items()
    }
    return _fuse(channels, checked, contribution)


def fuse_scores(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    similarity: Mapping[str, float] | None = None,
    weights: Mapping[str, float] | None = None,
    units: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Score-level fusion on absolute scales: the cosine similarity plus what each other channel's
    evidence adds.

    ``score(d) = sim(d) + sum over other channels c of w_c * s_c(d) / unit_c``

    - ``sim`` is the cosine similarity itself, not rescaled per query: the ``vector`` channel's
      candidates carry it as their score, ``similarity`` gives it for candidates another channel
      found (the graph and links channels compute it), and a candidate with neither (found by
      keyword only) counts as the weakest vector hit.
    - ``s_c / unit_c`` is a channel's score in its own absolute unit (absent = 0): the keyword
      channel's BM25 divided by the query's idf mass (``retrieval/keyword.py``: a memory that
      holds every searched term once scores about 1, for a two-word question and a twenty-word
      one alike); the graph and links scores are calibrated already (unit 1).

    No scale is stretched per query (the old fusion scaled the similarities to [0, 1] and BM25 to
    its best hit), so a channel counts as much as its evidence holds: the best BM25 hit of a
    question whose rare words all match counts fully; the best hit of a question it matches
    poorly counts little, instead of always as much as the best vector hit. Chosen over rank
    fusion, z-scores and a learned combination by leave-one-dataset-out on every dev set
    (``benchmarks/RESULTS.md``).

    Args:
        channels: ``{channel name: candidates}``; ``vector`` holds cosine similarities.
        similarity: cosine similarity of candidates outside the vector channel.
        weights: per-channel weights of the non-vector channels (default 1.0 each).
        units: per-channel unit the score is divided by (default 1.0; a unit <= 0 counts as 1).

    Returns:
        Fused candidates, best first; ties broken by best single-channel rank, then id.

    Raises:
        ConfigError: a weight is negative or not finite.
    """
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
        if name == "vector":
            continue
        unit = (units or {}).get(name, 1.0)
        unit = unit if unit > 0 and math.isfinite(unit) else 1.0
        contribution[name] = {i: max(h.score, 0.0) / unit for i, h in hits.items()}
    fused = _fuse(
        {**channels, "vector": channels.get("vector", [])}, {**checked, "vector": 1.0}, contribution, ids
    )
    return fused


def fuse(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    method: str = "score",
    similarity: Mapping[str, float] | None = None,
    weights: Mapping[str, float] | None = None,
    units: Mapping[str, float] | None = None,
    rrf_k: int = DEFAULT_RRF_K,
) -> list[Fused]:
    """The fusion stage: :func:`fuse_scores` (``method="score"``) or :func:`rrf`."""
    if method == "rrf":
        return rrf(channels, k=rrf_k, weights=weights)
    return fuse_scores(channels, similarity=similarity, weights=weights, units=units)


def standout(hits: Sequence[Candidate], *, reference: int = 10) -> float:
    """How far a channel's first candidate stands above its ``reference``-th, as a share of the
    first's score (0: a flat list, 1: the rest score nothing); 1 for a list shorter than that.

    A keyword list whose first memory scores no better than its tenth has matched words that
    many memories share (a long project chat, where every assistant answer holds the question's
    words): its order says little about this question.

    Example:
        >>> standout([Candidate("a", 2.0, "keyword", 1), Candidate("b", 1.0, "keyword", 2)], reference=2)
        0.5
    """
    if len(hits) < reference:
        return 1.0
    top, ref = hits[0].score, hits[reference - 1].score
    return max(0.0, min(1.0, (top - ref) / top)) if top > 0 else 0.0


def reliabilities(
    channels: Mapping[str, Sequence[Candidate]],
    *,
    strength: float = 1.0,
    gap: float = 0.4,
    reference: int = 10,
    channel_names: Sequence[str] = ("keyword",),
) -> dict[str, float]:
    """What each scored channel's fusion weight is multiplied by in this search, in [0, 1]:
    ``(1 - strength) + strength * min(1, standout / gap)`` (:func:`standout`), so a channel
    whose first candidate stands out of its list by ``gap`` or more keeps its whole weight and
    a flat one keeps ``1 - strength`` of it. ``strength`` 0: fixed weights."""
    out = {name: 1.0 for name in channels if name != "vector"}
    if strength <= 0:
        return out
    for name in channel_names:
        if channels.get(name):
            share = min(1.0, standout(channels[name], reference=reference) / gap) if gap > 0 else 1.0
            out[name] = (1.0 - min(strength, 1.0)) + min(strength, 1.0) * share
    return out
