"""Canonical entity keys and the mapping of free-text predicates onto the relation vocabulary."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import cast

from falkmem.errors import InputError

from .lexicon import APOSTROPHES, words
from .vocab import PASSIVES, PREDICATES, RELATIONS, Relation

__all__ = ["canonical_key", "key_tokens", "lookup_relation", "normalize_relation"]

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
    key = _canonical_key(name)
    if key is None:
        raise InputError(field, "an entity name needs at least one letter or digit")
    return key


@lru_cache(maxsize=32_768)
def _canonical_key(name: str) -> str | None:
    """``canonical_key`` without the error (None for no token), memoised: the same names come
    again and again (every mention, every triple endpoint of every memory)."""
    if _FAST_KEY.fullmatch(name) and name.split(" ", 1)[0] not in _ARTICLES:
        return name
    tokens = key_tokens(name)
    while len(tokens) > 1 and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    return " ".join(tokens) if tokens else None


# --- relations --------------------------------------------------------------------------

_FILLERS = words(
    "the a an also currently now still formerly previously recently directly just already "
    "actually officially really who which that"
)
_AUX = re.compile(
    r"^(?:(?:is|are|was|were|am|be|been|being|has|have|had|will|would|shall|should|can|"
    r"could|may|might|must|does|do|did|gets|got|get|became|become|becomes)\s+)+"
)
_ACTIVE_RE: list[tuple[re.Pattern[str], Relation]] = [(re.compile(p), r) for p, r in PREDICATES]

_PASSIVE_RE: list[tuple[re.Pattern[str], Relation, bool]] = [(re.compile(p), r, s) for p, r, s in PASSIVES]
_PASSIVE_FORM = re.compile(
    r"^(?P<aux>(?:(?:is|are|was|were|be|been|being|has|have|had|will|"
    r"get|gets|got)\s+)*)(?P<core>.+?)\s+by$"
)
_WORDS = re.compile(r"[a-z]+")


@lru_cache(maxsize=2048)
def lookup_relation(predicate: str) -> tuple[Relation, bool] | None:
    """Map a free-text predicate onto the relation vocabulary, or say it is not known.

    The predicate is lower-cased, punctuation, articles and a few adverbs ("also",
    "currently") are dropped, auxiliaries ("is", "was", "has been") are stripped, and the rest
    must match a known phrase entirely (so a long clause does not match by accident).
    Passives are turned round: ``"was built by"`` → ``("built", True)``.

    Args:
        predicate: e.g. ``"is led by"``, ``"works at"``, ``"was born in"``.

    Returns:
        ``(relation, swap)`` where ``swap`` means the subject and object must be exchanged,
        or ``None`` when the predicate is not recognised.
    """
    words = [w for w in _WORDS.findall(predicate.casefold()) if w not in _FILLERS]
    if not words:
        return None
    phrase = " ".join(words)
    passive = _PASSIVE_FORM.match(phrase)
    if passive is not None and passive.group("core"):
        core = passive.group("core")
        for pattern, relation, swap in _PASSIVE_RE:
            if pattern.fullmatch(core):
                return relation, swap
        if not passive.group("aux"):
            return None
    stripped = _AUX.sub("", phrase) or phrase
    for candidate in (stripped, phrase):
        for pattern, relation in _ACTIVE_RE:
            if pattern.fullmatch(candidate):
                return relation, False
    return None


def normalize_relation(predicate: str) -> tuple[Relation, bool]:
    """Map a free-text predicate onto the relation vocabulary.

    Args:
        predicate: e.g. OpenIE's ``"is led by"``; also an exact vocabulary name
            (``"reports_to"``).

    Returns:
        ``(relation, swap)``; ``("related_to", False)`` when the predicate is not recognised.
        ``swap`` is true for a passive: ``"Helios was built by Atlas"`` is
        ``built(atlas, helios)``.
    """
    exact = "_".join(predicate.casefold().split())
    if exact in RELATIONS:
        return cast(Relation, exact), False
    found = lookup_relation(predicate.replace("_", " "))
    return found if found is not None else ("related_to", False)
