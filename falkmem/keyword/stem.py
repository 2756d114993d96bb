"""Snowball English stemming: the algorithm FalkorDB's full-text index stems its terms with."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import Stemmer

__all__ = ["stem", "stem_all"]

_local = threading.local()


def _stemmer() -> Stemmer.Stemmer:
    # PyStemmer objects are not thread-safe: one per thread (each keeps its own word cache).
    s: Stemmer.Stemmer | None = getattr(_local, "stemmer", None)
    if s is None:
        s = Stemmer.Stemmer("english", 50_000)
        _local.stemmer = s
    return s


def stem_all(tokens: Sequence[str]) -> list[str]:
    """The Snowball English stem of each token, in order.

    The full-text index matches ``company`` with ``companies`` because it stems both
    (``compani``); BM25 re-scoring counts term frequencies on the same stems, or it would score
    the index's own matches 0.

    Example:
        >>> stem_all(["companies", "company", "running", "runs", "837"])
        ['compani', 'compani', 'run', 'run', '837']
    """
    return list(_stemmer().stemWords(list(tokens)))


def stem(token: str) -> str:
    """The Snowball English stem of one token (``stem("announced") == "announc"``)."""
    return str(_stemmer().stemWord(token))
