"""Ranking: candidates, fusion of retrieval channels, and reranking of the fused head."""

from .fusion import DEFAULT_RRF_K, Candidate, Fused, fuse_scores, rrf
from .rerank import (
    MAX_PASSAGE_CHARS,
    CrossEncoderReranker,
    NoReranker,
    Reranker,
    RerankOutcome,
    load_reranker,
    rerank,
)

__all__ = [
    "DEFAULT_RRF_K",
    "MAX_PASSAGE_CHARS",
    "Candidate",
    "CrossEncoderReranker",
    "Fused",
    "NoReranker",
    "RerankOutcome",
    "Reranker",
    "fuse_scores",
    "load_reranker",
    "rerank",
    "rrf",
]
