"""Search tokens: text split like RediSearch does into lower-case words safe to search for.

The keyword channel, BM25 re-scoring, ranking's leanings and the context packer all tokenise
with :func:`tokenize` and drop :data:`STOPWORDS`."""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["STOPWORDS", "names_in", "tokenize"]

# A token is a letter or digit followed by letters, digits and combining marks (Devanagari
# vowel signs, the dot of a case-folded "İ"): marks belong to the word they follow. Everything
# else (whitespace, punctuation, symbols, the underscore) separates tokens. RediSearch's default
# tokenizer splits on ASCII punctuation the same way (``user@example.com`` -> user, example,
# com); unlike RediSearch we also split on ``_``, so nothing but letters, digits and marks can
# ever reach the query parser (``snake_case`` becomes ``snake`` + ``case``).
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
_ALNUM_TOKEN = re.compile(r"[^\W_]+")  # ``[^\W_]`` matches exactly what ``str.isalnum`` accepts

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn doing
    don down during each either else ever few for from further had hadn has hasn have haven
    having he her here hers herself him himself his how however i if in into is isn it its
    itself just let ll me might more most must mustn my myself neither no nor not of off on
    once only or other ought our ours ourselves out over own re same shall shan she should
    shouldn so some such than that the their theirs them themselves then there these they this
    those through to too under until up upon us ve very was wasn we were weren what when where
    whether which while who whom whose why will with within without won would wouldn yet you
    your yours yourself yourselves
    """.split()  # noqa: SIM905 - a word block is easier to review than 170 quoted strings
)
"""Common English function words, dropped from keyword queries and query terms.

A superset of RediSearch's default English list. The FalkorDB full-text index keeps no
stopwords by default (``the`` matches documents), so dropping them here is what keeps a
query from matching, and scoring, nearly every document (cost is linear in matches).
"""


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lower-case alphanumeric tokens, in order, duplicates kept.

    The text is NFKC-normalised (full-width and compatibility forms become plain letters and
    digits) and case-folded, then split on anything that is not a letter, a digit or a
    combining mark following one.

    Args:
        text: any text.

    Returns:
        The tokens, e.g. ``tokenize("Mail user@Example.com!")`` is
        ``["mail", "user", "example", "com"]``.
    """
    if text.isascii():  # NFKC leaves ASCII as it is, and casefold is lower there
        return _ASCII_TOKEN.findall(text.lower())
    # NFKC again after casefold: folding can leave decomposed sequences behind.
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if folded.isascii():
        return _ASCII_TOKEN.findall(folded)
    if not any(unicodedata.category(ch)[0] == "M" for ch in set(folded) if not ch.isascii()):
        return _ALNUM_TOKEN.findall(folded)  # no combining mark: letters and digits only
    return _unicode_token().findall(folded)


_CAPITALISED = re.compile(r"[ \t(\"'“‘/-]([A-Z][\w'’-]*[a-z0-9][\w'’-]*|[A-Z]{2,}\b)")
"""A capitalised word or an acronym with the character before it (a space, bracket, quote, slash
or hyphen), which no earlier match can hold: a match ends at a word's end, that character is
not a word's. Opening with the character class, not a look-behind, makes it a C-speed scan."""


def names_in(text: str) -> list[str]:
    """The capitalised words and acronyms of ``text`` after its first word, lower-cased,
    stopwords left out: the names it mentions (capitals opening the text are forced).

    Example:
        >>> names_in("Ana met the CTO of Atlas in (New) York.")
        ['cto', 'atlas', 'new', 'york']
    """
    return [w for m in _CAPITALISED.findall(text) if (w := m.lower().rstrip("'’-")) not in STOPWORDS]


@functools.cache
def _unicode_token() -> re.Pattern[str]:
    r"""A letter or digit (``[^\W_]`` is exactly ``str.isalnum``), then letters, digits and
    combining marks. ``re`` has no ``\p{M}``: the marks are listed from the Unicode database of
    this Python, once (planes 0, 1 and 14 hold every one of them)."""
    ranges: list[tuple[int, int]] = []
    for lo, hi in ((0, 0x20000), (0xE0000, 0xF0000)):
        for cp in range(lo, hi):
            if unicodedata.category(chr(cp))[0] == "M":
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1] = (ranges[-1][0], cp)
                else:
                    ranges.append((cp, cp))
    marks = "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)
    return re.compile(f"[^\\W_](?:[^\\W_]|[{marks}])*")
