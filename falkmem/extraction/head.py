"""A memory's head: where it names what it is about.

"Steve Hillage\\nSteve Hillage is an English musician..." is about Steve Hillage; a passage that
merely mentions him is not. The graph channel follows a link from a memory to an entity named in
its head (``REFERENCES.head``): a bridge entity, or an entity the question names, leads to the
memories *about* it.

- A title line (a short first line before the text) is the head.
- Otherwise the first sentence is, except for an ``episode`` (a conversation turn, an
  observation): "Thanks! I also started reading The Glass Orchard." is not about what it names
  first. Measured on LongMemEval's chat histories (48 questions, turns stored as episodes):
  first-sentence heads of turns took the default from vector + keyword search's 70.8 / 85.4
  R@5 / R@10 to 69.8 / 83.3, and with the query's named entities followed to 57.3 R@5; without
  heads on turns it is 70.8 / 85.4 while MuSiQue (titled documents) keeps its whole gain.
  A fact, a decision, an event ("Priya Chandran leads the Atlas team.") is about what it names.
"""

from __future__ import annotations

import re

from ..text.sentences import split_sentences
from .types import EntityMention

__all__ = ["HEAD_CHARS", "TITLE_MAX_CHARS", "TITLE_MAX_WORDS", "head_text", "in_head", "title_line"]

HEAD_CHARS = 300
"""At most this many characters of the first sentence count as the head."""
UNTITLED_WITHOUT_HEAD = frozenset({"episode"})
"""Kinds whose first sentence is not a head (conversation turns, observations)."""

TITLE_MAX_CHARS = 100
"""A first line longer than this is not a title."""
TITLE_MAX_WORDS = 12
"""A first line of more words than this is not a title."""

# A title may end with an abbreviation ("Martin Luther King Jr.", "Life at N.A.S.A.").
_NON_SPACE = re.compile(r"\S")
_ABBREVIATION_END = re.compile(r"(?:^|\s)(?:[A-Z][a-z]{0,3}|(?:[A-Za-z]\.)+[A-Za-z]?)\.$")


def title_line(text: str) -> str | None:
    """The memory's title: a short first line followed by more text, or None.

    A first line is a title when it is at most ``TITLE_MAX_CHARS`` characters and
    ``TITLE_MAX_WORDS`` words and does not end like a sentence or an opener (``!?:;,``, or a
    ``.`` that is not an abbreviation's). "Glimmerton, Ohio\\nGlimmerton is..." has one;
    "Thanks!\\nI also started..." and "Here are some ideas:\\n1. ..." do not.
    """
    nl = text.find("\n", 0, TITLE_MAX_CHARS + 1)
    if nl <= 0 or _NON_SPACE.search(text, nl + 1) is None:
        return None
    line = text[:nl].strip()
    if not line or len(line.split()) > TITLE_MAX_WORDS or line[-1] in "!?:;,":
        return None
    if line[-1] == "." and not _ABBREVIATION_END.search(line):
        return None
    return line


def head_text(text: str, kind: str = "episode") -> str:
    """The case-folded head of a memory: its title line; else its first sentence (at most
    ``HEAD_CHARS``) unless ``kind`` is an episode; else ``""`` (no head)."""
    title = title_line(text)
    if title is not None:
        return " ".join(title.split()).casefold()
    if kind in UNTITLED_WITHOUT_HEAD:
        return ""
    parts = split_sentences(text[: HEAD_CHARS * 2], clauses=True)
    first = parts[0] if parts else text
    return " ".join(first[:HEAD_CHARS].split()).casefold()


def in_head(entity: EntityMention, head: str) -> bool:
    """True when the entity's name (or an alias) appears in ``head`` (from ``head_text``)."""
    return any(" ".join(n.split()).casefold() in head for n in (entity.name, *entity.aliases) if n)
