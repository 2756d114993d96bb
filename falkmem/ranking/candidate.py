"""The ``Candidate``: one retriever hit, with a higher-is-better score and its channel rank."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError

__all__ = ["Candidate"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One hit from one retrieval channel.

    Every retriever converts what the server returns into this shape before fusion: the
    vector channel turns a cosine *distance* into a similarity, the keyword channel uses its
    BM25 score, the graph channel its activation. Past this point a score means one thing.

    Attributes:
        id: the artifact id.
        score: higher is better, always; finite.
        channel: the retriever that produced it (``"vector"``, ``"graph"``, ``"keyword"``...).
        rank: 1-based position within its channel (1 = best).
    """

    id: str
    score: float
    channel: str
    rank: int

    def __post_init__(self) -> None:
        if self.rank < 1:
            raise InputError("rank", "must be 1 or more (1 = best in its channel)")
        if not math.isfinite(self.score):
            raise InputError("score", "must be a finite number")
