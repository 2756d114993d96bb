"""Keyword channel helpers: query terms, Snowball stemming, BM25 re-scoring (tokens: ``falkmem.text``)."""

from .bm25 import bm25_idf as bm25_idf
from .bm25 import bm25_scores as bm25_scores
from .stem import stem as stem
from .stem import stem_all as stem_all
from .tokens import query_terms as query_terms

__all__ = ["bm25_idf", "bm25_scores", "query_terms", "stem", "stem_all"]
