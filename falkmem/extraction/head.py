"""A memory's head: its title line or first sentence, where it names what it is about.

"Steve Hillage\\nSteve Hillage is an English musician..." is about Steve Hillage; a passage that
merely mentions him is not. The graph channel weighs a link from a memory to an entity named in
its head more (``REFERENCES.head``): following a bridge entity lands on the memory *about* it.
"""

from __future__ import annotations

from .names import split_sentences
from .types import EntityMention

__all__ = ["HEAD_CHARS", "head_text", "in_head"]

HEAD_CHARS = 300
"""At most this many characters of the first sentence count as the head."""


def head_text(text: str) -> str:
    """The case-folded head of ``text``: its first line or sentence, at most ``HEAD_CHARS``."""
    parts = split_sentences(text[: HEAD_CHARS * 2])
    first = parts[0][1] if parts else text
    return " ".join(first[:HEAD_CHARS].split()).casefold()


def in_head(entity: EntityMention, head: str) -> bool:
    """True when the entity's name (or an alias) appears in ``head`` (from ``head_text``)."""
    return any(" ".join(n.split()).casefold() in head for n in (entity.name, *entity.aliases) if n)
