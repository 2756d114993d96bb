"""``Hit.relevance``: how likely a hit is to be evidence, in [0, 1], on one scale for every
question and tenant (the fused score is not): a logistic of the hit's :class:`Evidence` times one
of how well the question matches the tenant at all (docs/relevance.md)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..config import RelevanceConfig
from .fusion import Fused

__all__ = ["Evidence", "evidence", "relevance"]


NEAR = 5
"""``Evidence.near_cosine`` averages the vector channel's first ``NEAR`` neighbours."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a hit's relevance is computed from: its cosine (as in fusion), the share of the
    question's idf mass it holds, its graph and cross-encoder scores; the question's nearest
    cosine, the mean of its first :data:`NEAR`, and the largest keyword share and idf held."""

    cosine: float
    keyword: float = 0.0
    graph: float = 0.0
    top_cosine: float = 0.0
    near_cosine: float = 0.0
    top_keyword: float = 0.0
    rerank: float | None = None
    top_held: float = 0.0
    max_idf: float = 0.0


def evidence(
    fused: Sequence[Fused],
    *,
    vector: Sequence[tuple[str, float]],
    similarity: Mapping[str, float],
    held: Mapping[str, float],
    mass: float,
    max_idf: float = 0.0,
) -> dict[str, Evidence]:
    """Each fused candidate's :class:`Evidence`. ``vector``: the vector channel's (id, cosine),
    best first; ``similarity``: other channels' cosines; ``held``/``mass``: keyword idf;
    ``max_idf``: the idf of a word in one of the tenant's memories."""
    cosines = dict(vector)
    floor = min(cosines.values(), default=min(similarity.values(), default=0.0))
    near = sorted(cosines.values(), reverse=True)[:NEAR] or sorted(similarity.values(), reverse=True)[:NEAR]
    top, mean = (near[0], sum(near) / len(near)) if near else (0.0, 0.0)
    share = {i: min(1.0, h / mass) for i, h in held.items()} if mass > 0 else {}
    top_kw, top_held = max(share.values(), default=0.0), max(held.values(), default=0.0)
    return {
        f.id: Evidence(
            cosine=cosines.get(f.id, similarity.get(f.id, floor)),
            keyword=share.get(f.id, 0.0),
            graph=max(0.0, float(f.scores.get("graph", 0.0))),
            top_cosine=top,
            near_cosine=mean,
            top_keyword=top_kw,
            rerank=f.rerank_score,
            top_held=top_held,
            max_idf=max_idf,
        )
        for f in fused
    }


def match(e: Evidence) -> float:
    """The largest keyword share times the idf that memory holds in units of the tenant's largest
    idf (a word in one memory): about how many rare words of the question one memory holds,
    whatever the tenant's size (absolute idf is small in a small tenant, where every word is rare)."""
    return e.top_keyword * e.top_held / e.max_idf if e.max_idf > 0 else 0.0


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def on_topic(e: Evidence, cfg: RelevanceConfig) -> float:
    """The probability that the question is about this tenant's memories at all (the same for
    every hit of a search)."""
    return _sigmoid(cfg.question_intercept + cfg.question_top_cosine * e.top_cosine
                    + cfg.question_near_cosine * e.near_cosine + cfg.question_top_keyword * e.top_keyword
                    + cfg.question_match * match(e))  # fmt: skip


def evidence_odds(e: Evidence, cfg: RelevanceConfig) -> float:
    """The log-odds that the hit is evidence for a question its tenant answers."""
    z = (
        cfg.intercept
        + cfg.cosine * e.cosine
        + cfg.keyword * e.keyword
        + cfg.graph * min(e.graph, cfg.graph_cap)
        + cfg.below_top * (e.top_cosine - e.cosine)
    )
    if e.rerank is not None and cfg.rerank:
        z += cfg.rerank * (e.rerank - cfg.rerank_center)
    return z


def relevance(e: Evidence, cfg: RelevanceConfig) -> float:
    """``Hit.relevance``: P(the question is on topic) x P(the hit is evidence | it is), rounded to
    4 places."""
    return round(on_topic(e, cfg) * _sigmoid(evidence_odds(e, cfg)), 4)
