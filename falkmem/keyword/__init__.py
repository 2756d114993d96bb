"""Keyword channel helpers: RediSearch-safe tokenising and query building, BM25 re-scoring."""

from .bm25 import bm25_idf as bm25_idf
from .bm25 import bm25_scores as bm25_scores
from .tokens import STOPWORDS as STOPWORDS
from .tokens import fulltext_query as fulltext_query
from .tokens import query_terms as query_terms
from .tokens import tokenize as tokenize

__all__ = ["STOPWORDS", "bm25_idf", "bm25_scores", "fulltext_query", "query_terms", "tokenize"]
