"""The Extractor protocol every extractor (rule-based, LLM, custom) implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .known import KnownEntities
from .types import Extraction

__all__ = ["Extractor"]


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
        """Extract entities and triples from ``text``, said by ``speaker`` (``"user"``, a user
        name, ``"assistant"``...), reusing the names of the tenant's ``known`` entities."""
        ...
