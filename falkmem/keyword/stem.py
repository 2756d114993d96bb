"""Snowball English stemming: the algorithm FalkorDB's full-text index stems its terms with."""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence

import Stemmer

from .tokens import tokenize

__all__ = ["DOCUMENT_CACHE", "document_stems", "stem", "stem_all"]

DOCUMENT_CACHE = 4096
"""Memories whose stem counts are kept (about 5 KB each for a 100-word passage)."""

_local = threading.local()
_memo: dict[str, str] = {}
_MEMO_MAX = 200_000  # distinct words remembered; past it the memo starts over


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
    """The Snowball English stem of one token (``stem("announced") == "announc"``).

    Memoised per process (a dict lookup once a word was seen): the keyword channel stems
    every word of every candidate it ranks.
    """
    got = _memo.get(token)
    if got is None:
        if len(_memo) >= _MEMO_MAX:
            _memo.clear()
        got = _memo[token] = str(_stemmer().stemWord(token))
    return got


@functools.lru_cache(maxsize=DOCUMENT_CACHE)
def document_stems(text: str) -> tuple[int, Mapping[str, int]]:
    """The length in tokens of a memory's indexed text and how often each stem occurs in it.

    The keyword channel ranks the same memories for many queries; memories never change
    (an erased id that comes back has other text), so the counts are cached by content, for
    the last :data:`DOCUMENT_CACHE` texts. The mapping is shared: read it, never change it.

    Example:
        >>> n, counts = document_stems("Two companies; a company.")
        >>> n, counts["compani"], counts["two"]
        (4, 2, 1)
    """
    tokens = tokenize(text)
    memo = _memo
    counts: dict[str, int] = {}
    for token in tokens:
        s = memo.get(token)
        if s is None:
            s = stem(token)
        counts[s] = counts.get(s, 0) + 1
    return len(tokens), counts
