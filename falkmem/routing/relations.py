"""The relations a question asks about ("Who manages the person who leads the team that built
Project Helios?": manages, leads, built), a chain the graph walk follows over typed edges; the
words live beside the extractor's predicates (``extraction/vocab.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..extraction.vocab import ANSWERED_BY, QUESTION_WORDS, Relation

__all__ = ["RelationAsk", "find_relations"]

_ROWS: tuple[tuple[re.Pattern[str], tuple[Relation, ...], int], ...] = tuple(
    (re.compile(rf"\b(?:{pattern})\b"), relations, steps) for pattern, relations, steps in QUESTION_WORDS
)
_ASKER = re.compile(r"\b(?:my|our|your|i|we|you|me)\s+(?:[a-z'-]+\s+)?$")
"""A relation of the asker's own ("my sister"): the graph does not hold the asker as an entity."""


@dataclass(frozen=True, slots=True)
class RelationAsk:
    """A question's relational words in order, the relation labels that answer them (inverses and
    near synonyms included), and how many steps they span (a "grandfather" spans two)."""

    words: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    steps: int = 0


def find_relations(text: str) -> RelationAsk:
    """The relational words of ``text`` (whole words, the longest of overlapping matches) and the
    relations they ask for; words whose chain starts at the asker are left out."""
    low = text.lower()
    found: list[tuple[int, int, int]] = []
    for row, (regex, _, _) in enumerate(_ROWS):
        for m in regex.finditer(low):
            if _ASKER.search(low, 0, m.start()) is None:
                found.append((m.start(), m.end(), row))
    found.sort(key=lambda s: (s[0] - s[1], s[0]))
    chosen: list[tuple[int, int, int]] = []
    for span in found:
        if all(span[1] <= c[0] or span[0] >= c[1] for c in chosen):
            chosen.append(span)
    chosen.sort()
    relations: dict[Relation, None] = {}
    for _, _, row in chosen:
        for relation in _ROWS[row][1]:
            relations.setdefault(relation, None)
    for relation in list(relations):
        for other in ANSWERED_BY.get(relation, ()):
            relations.setdefault(other, None)
    return RelationAsk(
        words=tuple(low[a:b] for a, b, _ in chosen),
        relations=tuple(relations),
        steps=sum(_ROWS[row][2] for _, _, row in chosen),
    )
