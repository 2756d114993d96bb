"""KnownEntities: an in-memory n-gram index of a tenant's entity keys for finding them in text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .common import is_common_word
from .keys import canonical_key, key_tokens
from .lexicon import words

__all__ = ["KnownEntities", "KnownMatch", "TextToken", "tokenize"]

# Keys that are too common to count as a mention on their own (an entity called "I" or "it").
_STOP_KEYS = words(
    "a an the i me my we us our you your he him his she her it its they them their this that "
    "these those is are was were be been am do does did to of in on at by for with and or but "
    "not no so if as up"
)
_RAW_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = "\"'`()[]{}<>.,;:!?\u201c\u201d\u2018\u2019*_"


@dataclass(frozen=True, slots=True)
class TextToken:
    """One canonical token of a text, with the character span of the word it came from."""

    token: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class KnownMatch:
    """A known entity found in a text.

    Attributes:
        key: the entity's canonical key.
        name: its display name, as registered.
        start: index of the first canonical token of the match (see ``tokenize``).
        end: index one past its last token.
        char_start: character offset of the match in the text.
        char_end: character offset one past its end.
    """

    key: str
    name: str
    start: int
    end: int
    char_start: int
    char_end: int


def tokenize(text: str) -> list[TextToken]:
    """Split a text into canonical tokens (``key_tokens`` per whitespace-separated word).

    A word that canonicalises to several tokens (``"Atlas-Team"``) gives several tokens with
    the same character span; surrounding punctuation is not part of the span.

    Args:
        text: any text.

    Returns:
        The tokens in order.
    """
    out: list[TextToken] = []
    for m in _RAW_TOKEN.finditer(text):
        word = m.group()
        lead = len(word) - len(word.lstrip(_EDGE_PUNCT))
        trail = len(word.rstrip(_EDGE_PUNCT))
        start, end = m.start() + lead, m.start() + max(trail, lead)
        for tok in key_tokens(word):
            out.append(TextToken(tok, start, end if end > start else m.end()))
    return out


class KnownEntities:
    """A tenant's entity keys → display names, searchable in arbitrary text.

    ``find`` canonicalises the text's tokens and looks up every n-gram up to the longest key
    length present (one dict lookup per n-gram, never a scan over the entities), so its cost
    depends on the text length, not on the number of entities. Not thread-safe for concurrent
    ``add`` and ``find``; build a new index and swap the reference to refresh.

    Args:
        entities: ``(key, name)`` pairs; keys are canonicalised (a no-op for keys that already
            are canonical) and a later pair with the same key replaces the name.
    """

    def __init__(self, entities: Iterable[tuple[str, str]] = ()) -> None:
        self._names: dict[str, str] = {}
        self._lengths: dict[int, int] = {}
        for key, name in entities:
            self.add(key, name)

    def add(self, key: str, name: str | None = None) -> str:
        """Register an entity.

        Args:
            key: its key (or any name: it is canonicalised).
            name: its display name; defaults to the key.

        Returns:
            The canonical key it was stored under.

        Raises:
            InputError: the key has no letter or digit.
        """
        canon = canonical_key(key)
        if canon not in self._names:
            n = canon.count(" ") + 1
            self._lengths[n] = self._lengths.get(n, 0) + 1
        self._names[canon] = name if name else canon
        return canon

    def discard(self, key: str) -> None:
        """Remove an entity if present (the key is canonicalised first)."""
        canon = canonical_key(key)
        if self._names.pop(canon, None) is not None:
            n = canon.count(" ") + 1
            self._lengths[n] -= 1
            if not self._lengths[n]:
                del self._lengths[n]

    def get(self, key: str) -> str | None:
        """Return the display name of a canonical key, or ``None``."""
        return self._names.get(key)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        if key in self._names:
            return True
        tokens = key_tokens(key)
        while len(tokens) > 1 and tokens[0] in ("the", "a", "an"):
            tokens = tokens[1:]
        return " ".join(tokens) in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def find(self, text: str) -> list[KnownMatch]:
        """Find every known entity mentioned in a text.

        Matching is case-, accent-form- and punctuation-insensitive (both sides go through
        ``key_tokens``); the longest match at a position wins and matches never overlap.
        A single-token match on a very common word ("it", "us") is ignored, and one on a
        common English word ("green", "seven") counts only where the text capitalises it: an
        entity named "Green" (an album) is not every passage about the colour.

        Args:
            text: any text.

        Returns:
            The matches, in text order.
        """
        if not self._names:
            return []
        tokens = tokenize(text)
        lengths = sorted(self._lengths, reverse=True)
        words = [t.token for t in tokens]
        out: list[KnownMatch] = []
        i, n = 0, len(words)
        while i < n:
            step = 1
            for size in lengths:
                if size > n - i:
                    continue
                cand = words[i] if size == 1 else " ".join(words[i : i + size])
                name = self._names.get(cand)
                if name is None or (size == 1 and cand in _STOP_KEYS):
                    continue
                if size == 1 and not text[tokens[i].start].isupper() and is_common_word(cand):
                    continue  # "green" is not the album "Green": a common word counts capitalised only
                last = tokens[i + size - 1]
                out.append(KnownMatch(cand, name, i, i + size, tokens[i].start, last.end))
                step = size
                break
            i += step
        return out
