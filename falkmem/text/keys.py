"""Name keys: the canonical tokens and key of an entity name, and its accents folded.

An entity is stored under its canonical key; the extractor, the known-entity index, the
router and ranking's leanings all key names through :func:`canonical_key` and
:func:`key_tokens`, so "Atlas-Team", "the Atlas team" and "ATLAS TEAM." meet.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..errors import InputError

__all__ = ["APOSTROPHES", "canonical_key", "fold_accents", "key_of", "key_tokens"]

APOSTROPHES = re.compile(r"['\u2019\u02bc\u2018`\u00b4]")
"""Every character written as an apostrophe: keys drop them ("O'Brien" -> "obrien"), and so
does the extractor's contraction test ("I’m", "Iʼm", "I'm" are "im")."""
_ARTICLES = frozenset({"the", "a", "an"})
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019\u02bc]s\b")
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d)")
_DIGIT_DOT = re.compile(r"(?<=\d)\.(?=\d)")
_ASCII_SEP = re.compile(r"[^a-z0-9\x00]+")
_FAST_KEY = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")


def key_tokens(text: str) -> list[str]:
    """Split text into canonical tokens, keeping every token (no article is dropped).

    Rules, applied in order: NFKC, casefold, a possessive ``'s`` dropped (``Larkspur's`` →
    ``larkspur``, as ``Jones'`` → ``jones``: a question says "Larkspur's performer" of the album
    "Larkspur"), other apostrophes removed (``O'Brien`` → ``obrien``),
    a comma between digits removed (``1,200`` → ``1200``), a dot between digits kept
    (``12.50``), every other character that is not a letter, digit or combining mark is a
    separator (hyphens, dots, ``@``, ``#``, underscores...).

    Args:
        text: any text.

    Returns:
        The tokens, in order; empty when the text has no letter or digit.
    """
    if text.isascii() and text.isalnum():  # a plain word or number: nothing to normalise
        return [text.lower()]
    s = unicodedata.normalize("NFKC", text).casefold()
    s = _POSSESSIVE.sub("", s)
    s = APOSTROPHES.sub("", s)
    s = _DIGIT_COMMA.sub("", s)
    s = _DIGIT_DOT.sub("\x00", s)
    if s.isascii():
        s = _ASCII_SEP.sub(" ", s)
    else:
        s = "".join(ch if ch == "\x00" or _is_word_char(ch) else " " for ch in s)
    return s.replace("\x00", ".").split()


@lru_cache(maxsize=4096)
def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNM"


def canonical_key(name: str, *, field: str = "entity") -> str:
    """Return the canonical key of an entity name.

    The key is ``key_tokens(name)`` joined by single spaces, with leading articles
    ("the", "a", "an") dropped while another token remains. ``"Atlas-Team"``,
    ``"the Atlas team"`` and ``"ATLAS TEAM."`` all give ``"atlas team"``. The function is
    idempotent: ``canonical_key(canonical_key(x)) == canonical_key(x)``.

    Args:
        name: an entity name or an existing key.
        field: the field named in the error.

    Returns:
        The canonical key.

    Raises:
        InputError: the name has no letter or digit.
    """
    key = key_of(name)
    if key is None:
        raise InputError(field, "an entity name needs at least one letter or digit")
    return key


@lru_cache(maxsize=32_768)
def key_of(name: str) -> str | None:
    """``canonical_key`` without the error (None for a name without a letter or digit), memoised: the same names come
    again and again (every mention, every triple endpoint of every memory)."""
    if _FAST_KEY.fullmatch(name) and name.split(" ", 1)[0] not in _ARTICLES:
        return name
    tokens = key_tokens(name)
    while len(tokens) > 1 and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    return " ".join(tokens) if tokens else None


@lru_cache(maxsize=65_536)
def fold_accents(text: str) -> str:
    """``text`` without its combining marks (NFKD, marks dropped, NFC): ``"akinoshū"`` →
    ``"akinoshu"``, ``"beyoncé"`` → ``"beyonce"``; letters that do not decompose (``ø``, ``ł``)
    stay.

    Example:
        >>> fold_accents("café müller")
        'cafe muller'
    """
    if text.isascii():
        return text
    stripped = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)
