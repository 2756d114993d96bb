"""Snowball English stemming: the algorithm FalkorDB's full-text index stems its terms with."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import Stemmer

from ..text.tokens import tokenize

__all__ = ["parse_bag", "stem", "stem_all", "stem_bag", "stem_counts", "stem_set"]

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


def stem_set(words: Iterable[str]) -> frozenset[str]:
    """The stems of ``words`` (each looked up in the memo inline: a call of :func:`stem` per
    word cost the packer half its stemming time).

    Example:
        >>> sorted(stem_set({"companies", "company", "runs"}))
        ['compani', 'run']
    """
    memo = _memo
    return frozenset([memo.get(w) or stem(w) for w in words])


def stem_counts(text: str) -> tuple[int, dict[str, int]]:
    """The length in tokens of a memory's indexed text and how often each stem occurs in it.

    Example:
        >>> n, counts = stem_counts("Two companies; a company.")
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


def stem_bag(text: str, attribution: str | None = None) -> tuple[int, str]:
    """A memory's length in tokens and its stem counts as stored for BM25 in the server.

    What is counted is what the full-text index holds for the memory: its text and its
    attribution (speaker, user). The keyword channel scores its candidates inside the query
    (``retrieve/keyword_search``), which cannot stem; so each artifact stores its stems with
    their counts in ``stems``, a string ``" stem:count stem:count … "`` (stems are
    alphanumeric, so neither ``:`` nor a space occurs in one). The query finds a term's count
    after ``" " + stem + ":"``. The write path, the schema-11 backfill and imports of older
    files all call this one function.

    Example:
        >>> stem_bag("Two companies; a company.")
        (4, ' two:1 compani:2 a:1 ')
        >>> stem_bag("A company.", "dana")
        (3, ' a:1 compani:1 dana:1 ')
        >>> stem_bag("")
        (0, ' ')
    """
    n, counts = stem_counts(f"{text} {attribution or ''}")
    return n, " " + "".join(f"{s}:{c} " for s, c in counts.items())


def parse_bag(bag: str) -> dict[str, int]:
    """The ``{stem: count}`` a :func:`stem_bag` string holds (its inverse, for checks and tools).

    Example:
        >>> parse_bag(" two:1 compani:2 ")
        {'two': 1, 'compani': 2}
    """
    return {s: int(c) for s, _, c in (item.rpartition(":") for item in bag.split())}
