"""What makes a sentence worth its tokens for one question: lexical, chain and type signals
(docs/context.md, "How sentences are chosen"), scored only on "hot" sentences (those holding a
question word's 4-letter prefix or a bridge name)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..keyword.stem import stem
from ..keyword.tokens import query_terms
from ..text.tokens import tokenize
from .sentences import Analysis, Sentence

__all__ = ["Query", "asks_for", "chain_names", "read_query", "weigh"]

_TIME_Q = r"\b(?:what|which)\s+time\b|\bat\s+what\s+time\b"
_WHAT = r"\b(?:what|which|in\s+what)(?:\s+(?:is|was|are|were))?(?:\s+the)?\s+"
""""what", "what is the", "which was the" ... before the noun that says what is asked."""
_DATE_Q = r"\bwhen\b|" + _WHAT + r"(?:year|date|day|month|decade|century)\b|\bhow\s+long\s+ago\b"
_NUMBER_Q = (
    r"\bhow\s+(?:many|much|long|old|far|often|big|tall|large|high)\b"
    r"|" + _WHAT + r"(?:percentage|percent|number|amount|size|population|score|price|cost)\b"
)
_WANTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(_TIME_Q, re.I), "time"),
    (re.compile(_DATE_Q, re.I), "date"),
    (re.compile(_NUMBER_Q, re.I), "number"),
    (re.compile(r"\bwho(?:m|se)?\b|\bwhere\b", re.I), "name"),
)
_CHAIN_MIN = 0.1
"""A bridge weighing less (one that led only to memories below the first ten) is no chain name."""
_PREFIX = 4
"""Letters of a question word a hot sentence holds (words of one Snowball stem share four)."""


@dataclass(frozen=True, slots=True)
class Query:
    """A question read once for scoring: its term ``stems`` weighted by rarity among the
    candidates (``total``: their sum), the ``chain`` names as ``" name "`` with their weights,
    and whether the answer is a date, a time, a number, a name (``wants``)."""

    stems: dict[str, float]
    total: float
    chain: tuple[tuple[str, float], ...]
    wants: tuple[bool, bool, bool, bool]

    def lexical(self, words: Iterable[str], covered: dict[str, int], repeat: float) -> float:
        """The share of the question a sentence adds, given how often each term is covered."""
        if self.total <= 0:
            return 0.0
        got = 0.0
        for w in self.stems.keys() & words:
            got += self.stems[w] * repeat ** covered.get(w, 0)
        return got / self.total

    def names_chain(self, norm: str) -> float:
        """The weight of the heaviest bridge a text (as ``Sentence.norm``) names (0: none)."""
        hay = f" {norm} "
        return max((w for name, w in self.chain if name in hay), default=0.0)

    def typed(self, s: Sentence) -> bool:
        """Whether the sentence holds what the question asks for."""
        date, time, number, name = self.wants
        return (date and s.date) or (time and s.time) or (number and s.number) or (name and s.name)


_JOINED = re.compile(r"\s*(?:,\s*)?(?:and|or)?\s*", re.IGNORECASE)
"""What may stand between two interrogatives asked together ("when and where")."""


def asks_for(query_text: str) -> frozenset[str]:
    """What the answer looks like, read from the question's first interrogative and any joined
    to it by "and"/"or" ("when and where"); a later "where" is a relative clause."""
    found = sorted(
        (m.start(), m.end(), want) for pattern, want in _WANTS for m in pattern.finditer(query_text)
    )
    if not found:
        return frozenset()
    wants = {found[0][2]}
    end = found[0][1]
    for start, stop, want in found[1:]:
        if _JOINED.fullmatch(query_text[end:start]) is None:
            break
        wants.add(want)
        end = stop
    return frozenset(wants)


def _name_pattern(name: str) -> str:
    """A regex for a name (lower-case tokens) in raw text: its tokens with anything between."""
    return r"\W+".join(re.escape(tok) for tok in name.split())


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _names_whole(text: str, name: str) -> bool:
    """Whether ``name`` occurs in ``text`` as whole words (``\\b`` without a regex per name)."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def chain_names(
    via: Iterable[tuple[str, float]], analyses: Sequence[Analysis], query_text: str
) -> dict[str, float]:
    """The bridge names a sentence is rewarded for naming, with their weights: the graph's
    bridge entities (``via``: name, weight of the memory it led to; the heaviest counts) and
    titles another candidate names (1), less those the question holds or under ``_CHAIN_MIN``."""
    asked = f" {' '.join(tokenize(query_text))} "
    names: dict[str, float] = {}
    for v, w in via:
        n = " ".join(tokenize(v))
        names[n] = max(names.get(n, 0.0), w)
    keyed = {a.title.casefold(): i for i, a in enumerate(analyses) if a.title and len(a.title) >= 3}
    for title, i in keyed.items():
        if any(j != i and _names_whole(a.folded, title) for j, a in enumerate(analyses)):
            names[" ".join(tokenize(title))] = 1.0
    return {n: w for n, w in names.items() if w >= _CHAIN_MIN and len(n) >= 3 and f" {n} " not in asked}


def read_query(query_text: str, chain: Iterable[str]) -> tuple[list[str], re.Pattern[str] | None]:
    """The question's term stems and the pattern of hot sentences (searched lower-cased)."""
    terms = query_terms(query_text)
    stems = list(dict.fromkeys(stem(t) for t in terms))
    parts = [re.escape(t[:_PREFIX]) for t in terms] + [_name_pattern(n) for n in chain]
    # Searched in lower-cased sentences: a case-blind pattern is tried at every position 1.7
    # times slower (the terms and names are lower-case tokens already).
    hot = re.compile(r"\b(?:" + "|".join(dict.fromkeys(parts)) + ")") if parts else None
    return stems, hot


def weigh(
    query_text: str,
    stems: Sequence[str],
    present: Sequence[frozenset[str]],
    chain: Mapping[str, float],
) -> Query:
    """The :class:`Query`, each stem weighted by its rarity in ``present`` (per candidate)."""
    n = len(present)
    weights: dict[str, float] = {}
    for st in stems:
        df = sum(1 for p in present if st in p)
        if df:
            weights[st] = math.log(1 + n / df) / math.log(1 + n) if n > 1 else 1.0
    wants = asks_for(query_text)
    return Query(
        stems=weights,
        total=sum(weights.values()),
        chain=tuple((f" {name} ", w) for name, w in chain.items()),
        wants=("date" in wants, "time" in wants, "number" in wants, "name" in wants),
    )
