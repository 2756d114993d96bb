"""KnownEntities: an in-memory n-gram index of a tenant's entity keys for finding them in text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..text.keys import canonical_key, fold_accents, key_of, key_tokens
from ..text.sentences import is_abbreviation
from .lexicon import CONTRACTIONS, is_common_word, words

__all__ = ["KnownEntities", "KnownMatch"]

# Keys that are too common to count as a mention on their own (an entity called "I" or "it"); with
# the contractions: "I’m" is the key "im", a tenant that once took it for a name finds it everywhere.
_STOP_KEYS = CONTRACTIONS | words(
    """a an the i me my we us our you your he him his she her it its they them their this that these those
    is are was were be been am do does did to of in on at by for with and or but not no so if as up"""
)
_RAW_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = "\"'`()[]{}<>.,;:!?\u201c\u201d\u2018\u2019*_"


@dataclass(frozen=True, slots=True)
class KnownMatch:
    """A known entity (key, registered name) found in a text, from ``char_start`` to ``char_end``."""

    key: str
    name: str
    char_start: int
    char_end: int


def _scan(text: str) -> tuple[list[str], list[int], list[int]]:
    """A text's canonical tokens (``key_tokens`` of each whitespace-separated word), and the start
    and end of the word each came from, its surrounding punctuation left out."""
    words: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for m in _RAW_TOKEN.finditer(text):
        lead, end, tokens = _word_tokens(m.group())
        words.extend(tokens)
        starts.extend([m.start() + lead] * len(tokens))
        ends.extend([m.start() + end] * len(tokens))
    return words, starts, ends


@lru_cache(maxsize=32_768)
def _word_tokens(word: str) -> tuple[int, int, tuple[str, ...]]:
    """One whitespace-separated word: (offset of its span's start, of its end, tokens); memoised."""
    lead = len(word) - len(word.lstrip(_EDGE_PUNCT))
    end = max(len(word.rstrip(_EDGE_PUNCT)), lead)
    return lead, end if end > lead else len(word), tuple(key_tokens(word))


class KnownEntities:
    """A tenant's entity keys → display names, searchable in arbitrary text.

    ``find`` looks up, where a token of the text starts a key, the n-grams of the lengths of the
    keys it starts: its cost depends on the text length, not on the number of entities. Not
    thread-safe for concurrent ``add`` and ``find``. A later ``(key, name)`` pair with the same
    key replaces the name.
    """

    def __init__(self, entities: Iterable[tuple[str, str]] = ()) -> None:
        self._names: dict[str, str] = {}
        # first token of a key -> the lengths in tokens of the keys it starts, longest first
        self._sizes: dict[str, tuple[int, ...]] = {}
        # for ``find(fold=True)``: keys without accents -> the keys, and lengths by folded token
        self._folded: dict[str, str] = {}
        self._folded_sizes: dict[str, tuple[int, ...]] = {}
        for key, name in entities:
            self.add(key, name)

    def add(self, key: str, name: str | None = None) -> str:
        """Register an entity under the canonical key of ``key`` (returned); ``name`` defaults to it.

        Raises:
            InputError: the key has no letter or digit.
        """
        canon = canonical_key(key)
        if canon not in self._names:
            n = canon.count(" ") + 1
            first = canon.split(" ", 1)[0]
            self._sizes[first] = _with_size(self._sizes.get(first, ()), n)
            folded = fold_accents(canon)
            first = folded.split(" ", 1)[0]
            self._folded_sizes[first] = _with_size(self._folded_sizes.get(first, ()), n)
            if folded != canon:
                self._folded.setdefault(folded, canon)
        self._names[canon] = name if name else canon
        return canon

    def discard(self, key: str) -> None:
        """Remove an entity if present (the key is canonicalised first)."""
        canon = canonical_key(key)
        if self._names.pop(canon, None) is not None:
            folded = fold_accents(canon)
            if self._folded.get(folded) == canon:
                del self._folded[folded]

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        return key in self._names or key_of(key) in self._names

    def find(self, text: str, *, fold: bool = False) -> list[KnownMatch]:
        """Every known entity mentioned in a text, in text order, never overlapping, the longest
        match first; case-, accent-form- and punctuation-insensitive (``key_tokens``). A one-token
        match on a very common word ("it") is ignored, and one of common English words ("Orange",
        an album) counts only where the text writes it as a name. With ``fold`` (for questions,
        typed without diacritics), accents may also differ ("Leonie Varady" finds "léonie várady";
        an exact match comes first)."""
        if not self._names:
            return []
        words, starts, ends = _scan(text)
        names = self._names
        # with fold: the text's tokens without accents, and the key lengths by folded first token
        # (every key is there under its folded first token, so these hold the exact ones too)
        plain = [w if w.isascii() else fold_accents(w) for w in words] if fold else words
        by_first = self._folded_sizes if fold else self._sizes
        out: list[KnownMatch] = []
        n = len(words)
        free = 0  # the first token not inside a match yet
        # only a position whose token starts a key can start a match
        for i in [i for i, w in enumerate(plain) if w in by_first]:
            if i < free:
                continue
            for size in by_first[plain[i]]:
                if size > n - i:
                    continue
                cand = words[i] if size == 1 else " ".join(words[i : i + size])
                name = names.get(cand)
                if name is None and fold:  # the exact spelling first, then without accents
                    bare = plain[i] if size == 1 else " ".join(plain[i : i + size])
                    key = bare if bare in names else self._folded.get(bare)
                    if key is not None:
                        cand, name = key, names[key]
                if name is None or (size == 1 and cand in _STOP_KEYS) or not any(c.isalpha() for c in cand):
                    continue  # a bare number ("3") is a list item or an amount, not a name
                if (_plain(cand) and not _named(text, starts[i : i + size], words[i : i + size])
                        and not _quoted(text, starts[i], ends[i + size - 1])):  # fmt: skip
                    continue  # all common English: a name only capitalised inside a sentence, or quoted
                out.append(KnownMatch(cand, name, starts[i], ends[i + size - 1]))
                free = i + size
                break
        return out


@lru_cache(maxsize=1024)
def _with_size(sizes: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``sizes`` and ``n``, longest first; memoised, so first tokens share a few tuples."""
    return tuple(sorted({*sizes, n}, reverse=True))


@lru_cache(maxsize=65_536)
def _plain(key: str) -> bool:
    """Whether every token of a key is a common English word (or a very common one)."""
    return all(t in _STOP_KEYS or is_common_word(t) for t in key.split(" "))


_OPENERS = ".!?:;\n"  # a word after one of these (and markup) is capitalised whatever it is
_MARKUP = " \t\r*_#>\"'`([{\u201c\u2018-\u2022"


def _named(text: str, starts: list[int], tokens: list[str]) -> bool:
    """Whether words that are all common English read as a name where they stand: each capitalised
    (function words aside, not the first), and not opening a sentence unless two or more are
    ("A House of Their Own", "New York"; not "Remember" or "I think" opening a sentence)."""
    content = 0
    for n, (at, token) in enumerate(zip(starts, tokens, strict=True)):
        if text[at].isupper():
            content += token not in _STOP_KEYS
        elif n == 0 or token not in _STOP_KEYS:
            return False
    if content >= 2:
        return True
    at = starts[0] - 1
    while at >= 0 and text[at] in _MARKUP:
        at -= 1
    if at < 0 or (text[at].isdigit() and _list_number(text, at)):
        return False
    return text[at] not in _OPENERS or (text[at] == "." and _abbreviation(text, at))


def _abbreviation(text: str, dot: int) -> bool:
    """Whether the full stop at ``dot`` ends an abbreviation or an initial ("Mr.", "J."), not a sentence."""
    return is_abbreviation(text[text.rfind(" ", 0, dot) + 1 : dot].lstrip("\"'(\u201c\u2018").casefold())


_QUOTES = "\"'`\u201c\u201d\u2018\u2019"


def _quoted(text: str, start: int, end: int) -> bool:
    """Whether the words from ``start`` to ``end`` stand between quotes, alone."""
    return start > 0 and end < len(text) and text[start - 1] in _QUOTES and text[end] in _QUOTES


def _list_number(text: str, at: int) -> bool:
    """Whether the digits ending at ``at`` stand alone at a line start ("3 Remember" after "3.")."""
    while at >= 0 and text[at].isdigit():
        at -= 1
    return at < 0 or text[at] == "\n"
