"""Ranking: candidates, fusion of retrieval channels, and reranking of the fused head."""

from .candidate import Candidate as Candidate
from .fusion import DEFAULT_RRF_K as DEFAULT_RRF_K
from .fusion import Fused as Fused
from .fusion import fuse_scores as fuse_scores
from .fusion import rrf as rrf
from .rerank import MAX_PASSAGE_CHARS as MAX_PASSAGE_CHARS
from .rerank import CrossEncoderReranker as CrossEncoderReranker
from .rerank import NoReranker as NoReranker
from .rerank import Reranker as Reranker
from .rerank import RerankOutcome as RerankOutcome
from .rerank import load_reranker as load_reranker
from .rerank import rerank as rerank

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
