"""A memory cut into what the packer chooses from: an optional title line and its sentences
(cached by text; a sentence's features computed only when first asked for)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import NamedTuple

from ..keyword.stem import stem_set
from ..text.dates import MONTHS, WEEKDAY_NAMES
from ..text.sentences import split_sentences, title_line
from ..text.tokens import STOPWORDS, names_in, tokenize

__all__ = ["ANALYSIS_CACHE_SIZE", "Analysis", "Sentence", "analyse", "one_line"]

ANALYSIS_CACHE_SIZE = 8192
"""Memories whose analysis is kept (by text), least recently used out first."""
_LINE_MARKS = re.compile(r"\n[ \t]*(?:#{1,6}[ \t]+|[-*•][ \t]+(?=\S))")
"""Heading marks and bullets after a line break (far faster than ``^`` under MULTILINE)."""
_EMPHASIS = re.compile(r"\*\*|__")
_NUMBER_WORDS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred
    thousand million billion once twice dozen""".split()  # noqa: SIM905 - a word block reads better than quoted strings
)
_COUNTS = _NUMBER_WORDS | {"single"}
"""Words that state a count ("a single free night", "two free nights"): ``Sentence.digits``."""
_DATE_WORDS = frozenset(MONTHS).union(
    WEEKDAY_NAMES,
    """yesterday today tomorrow tonight week weekend month year century decade spring summer autumn
    fall winter""".split(),  # noqa: SIM905 - a word block reads better than quoted strings
)
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)


def one_line(text: str) -> str:
    """``text`` with every run of white space made one space, stripped."""
    return " ".join(text.split())


class Sentence(NamedTuple):
    """What scoring needs of one sentence: its word stems but stopwords, its lower-case tokens
    joined (``norm``, what names match), whether it holds a number, date, time or name, and its
    tokens holding a digit or count word (``digits``: sentences differing there differ)."""

    words: frozenset[str]
    norm: str
    number: bool
    date: bool
    time: bool
    name: bool
    digits: frozenset[str]


def _stems(tokens: Iterable[str]) -> frozenset[str]:
    """The stems of the distinct tokens that are not stopwords."""
    return stem_set(set(tokens).difference(STOPWORDS))


def _sentence(text: str) -> Sentence:
    tokens = tokenize(text)
    bag = set(tokens)
    other = frozenset([t for t in bag if not t.isalpha() or t in _COUNTS])  # tokens are alphanumeric
    digits = [t for t in other if t.isdigit()]
    return Sentence(
        words=_stems(bag),
        norm=" ".join(tokens),
        number=bool(digits) or not _NUMBER_WORDS.isdisjoint(bag),
        date=not _DATE_WORDS.isdisjoint(bag) or any(len(t) == 4 and t[0] in "12" for t in digits),
        time=(":" in text or "m" in bag or "am" in bag or "pm" in bag) and _TIME.search(text) is not None,
        name=bool(names_in(text)),
        digits=other,
    )


class Analysis:
    """A memory cut for packing: its ``title`` line or None and its sentences (``texts``)."""

    def __init__(self, title: str | None, texts: tuple[str, ...]) -> None:
        self.title = title
        self.texts = texts
        self._sentences: list[Sentence | None] = [None] * len(texts)
        self._sentence_names: list[frozenset[str] | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def sentence(self, i: int) -> Sentence:
        """The features of sentence ``i`` (computed once)."""
        s = self._sentences[i]
        if s is None:
            s = self._sentences[i] = _sentence(self.texts[i])
        return s

    def names_of(self, i: int) -> frozenset[str]:
        """The names sentence ``i`` mentions (computed once)."""
        found = self._sentence_names[i]
        if found is None:
            found = self._sentence_names[i] = frozenset(names_in(self.texts[i]))
        return found

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """The stems of every word of the memory (title included) but stopwords."""
        return _stems(tokenize(" ".join((self.title or "", *self.texts))))

    @functools.cached_property
    def folded(self) -> str:
        """Its sentences joined, case-folded (where another's title is looked for)."""
        return " ".join(self.texts).casefold()

    @functools.cached_property
    def title_norm(self) -> str:
        """The title's lower-case tokens joined by spaces ("" without a title)."""
        return " ".join(tokenize(self.title or ""))

    @functools.cached_property
    def title_names(self) -> frozenset[str]:
        """The title's words, lower-cased, stopwords left out (what a bridge name matches)."""
        return frozenset(t for t in tokenize(self.title or "") if t not in STOPWORDS)

    @functools.cached_property
    def names(self) -> frozenset[str]:
        """The names it mentions: capitalised words not first in a sentence, and its title's."""
        # one pass: a sentence's first word follows a line break here
        return frozenset(names_in(" " + (self.title or "") + "\n" + "\n".join(self.texts)))


def _unmark(body: str) -> str:
    """``body`` without markdown emphasis and line-opening heading marks and bullets (two
    passes: they never overlap; the unit tests hold this equal to one regex pass)."""
    body = _LINE_MARKS.sub("\n", "\n" + body)[1:]
    return _EMPHASIS.sub("", body)  # one pass: "_**_" keeps its "__"


def _title(body: str) -> tuple[str | None, str]:
    """The title line (markdown dropped) when three words or more follow it, and the rest."""
    title = title_line(body)
    rest = body.partition("\n")[2]
    if (
        title is None
        or len(rest.split(None, 3)) < 3
        or not (title := _unmark(" ".join(title.split())).strip())
    ):
        return None, body
    return title, rest


@functools.lru_cache(maxsize=ANALYSIS_CACHE_SIZE)
def analyse(text: str) -> Analysis:
    """Cut a memory into its title and sentences (cached by text). A line break always ends a
    sentence; markdown marks are dropped: they cost tokens and say nothing."""
    title, body = _title(text.strip())
    body = _unmark(body)
    texts = tuple(
        t for part in split_sentences(body) if (t := " ".join(part.split())) and any(ch.isalnum() for ch in t)
    )
    return Analysis(title, texts)
