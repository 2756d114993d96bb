"""Snowball English stemming: the algorithm FalkorDB's full-text index stems its terms with."""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Sequence

import Stemmer

__all__ = ["stem", "stem_all", "stem_counts"]

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


def stem_counts(tokens: Iterable[str], wanted: Collection[str]) -> dict[str, int]:
    """How often each stem in ``wanted`` occurs among the stems of ``tokens``.

    Only tokens that start like a wanted stem are stemmed: Snowball English rewrites endings
    only, so a word and its stem share their first character.

    Example:
        >>> stem_counts(["two", "companies", "and", "a", "company"], {"compani", "merger"})
        {'compani': 2}
    """
    firsts = {w[:1] for w in wanted}
    memo = _memo
    out: dict[str, int] = {}
    for token in tokens:
        if token[:1] in firsts:
            s = memo.get(token)
            if s is None:
                s = stem(token)
            if s in wanted:
                out[s] = out.get(s, 0) + 1
    return out
