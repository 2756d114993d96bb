"""A memory's head, where it names what it is about: the graph channel follows ``REFERENCES.head``
links so a bridge entity leads to the memories *about* it, not to every mention (docs/decisions/0007)."""

from __future__ import annotations

from ..text.sentences import split_sentences, title_line
from .types import EntityMention

__all__ = ["HEAD_CHARS", "head_text", "in_head"]

HEAD_CHARS = 300
"""At most this many characters of the first sentence count as the head."""


def head_text(text: str, kind: str = "episode") -> str:
    """The case-folded head of a memory: its title line; else its first sentence (at most
    ``HEAD_CHARS``) unless ``kind`` is an episode (a conversation turn is not about what it names
    first); else ``""`` (no head)."""
    title = title_line(text)
    if title is not None:
        return " ".join(title.split()).casefold()
    if kind == "episode":
        return ""
    parts = split_sentences(text[: HEAD_CHARS * 2], clauses=True)
    first = parts[0] if parts else text
    return " ".join(first[:HEAD_CHARS].split()).casefold()


def in_head(entity: EntityMention, head: str) -> bool:
    """True when the entity's name (or an alias) appears in ``head`` (from ``head_text``)."""
    return any(" ".join(n.split()).casefold() in head for n in (entity.name, *entity.aliases) if n)
