"""The Extractor protocol every extractor (rule-based, LLM, custom) implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .known import KnownEntities
from .types import Extraction

__all__ = ["ASSISTANT_SPEAKERS", "Extractor"]

ASSISTANT_SPEAKERS: frozenset[str] = frozenset({"assistant", "agent", "system", "tool", "ai", "bot"})
"""Speakers whose words are never a source of facts for the LLM extractor."""


@runtime_checkable
class Extractor(Protocol):
    """Turns a memory text into entities and typed triples. Must be pure: no database I/O.

    Implementations must be safe to call from several threads, never add a relation or entity
    type outside the fixed vocabularies, and raise ``ExtractionError`` (never leak the text
    in a message) when they fail.
    """

    def extract(
        self, text: str, *, known: KnownEntities | None = None, speaker: str | None = None
    ) -> Extraction:
        """Extract entities and triples from ``text``.

        Args:
            text: the memory text.
            known: the tenant's known entities, to find again and reuse their names.
            speaker: who said the text (``"user"``, a user name, ``"assistant"``...).

        Returns:
            The extraction.
        """
        ...
