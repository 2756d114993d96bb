"""Public value types: what callers pass in (``Record``) and get back (``Hit``, ``SearchResult``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

KINDS: frozenset[str] = frozenset(
    {"episode", "fact", "decision", "note", "document", "preference", "event", "summary"}
)
"""The memory kinds falkmem accepts."""


class EntityIn(BaseModel):
    """An entity a caller already knows a memory mentions."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    type: str = "other"


class TripleIn(BaseModel):
    """A (subject, relation, object) a caller already knows; taken as given."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    subject: str
    relation: str
    object: str


class Record(BaseModel):
    """One memory to store, as ``add_many`` takes it (``add`` takes the same fields).

    Everything but ``text`` is optional. ``at`` is when the memory was true in the world
    (defaults to now); ``embedding`` lets a caller supply a precomputed vector (it must have
    the tenant's dimension).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    text: str
    id: str | None = None
    kind: str = "episode"
    session: str | None = None
    speaker: str | None = None
    agent: str | None = None
    user: str | None = None
    at: datetime | str | None = None
    metadata: Mapping[str, Any] | None = None
    key: str | None = None
    entities: tuple[EntityIn | str, ...] | None = None
    triples: tuple[TripleIn | tuple[str, str, str], ...] | None = None
    embedding: tuple[float, ...] | None = None


class Hit(BaseModel):
    """One recalled memory. ``score`` is higher-is-better; its scale depends on the route."""

    model_config = ConfigDict(frozen=True)
    id: str
    text: str
    kind: str
    score: float
    session: str | None = None
    speaker: str | None = None
    agent: str | None = None
    user: str | None = None
    created_at: datetime | None = None
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    status: str = "active"
    key: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    channels: dict[str, int] = Field(default_factory=dict)
    """The rank this memory had in each retrieval channel that found it (1 = first)."""


class SearchResult(BaseModel):
    """The ranked hits of a search, with how they were found.

    Iterating, ``len()`` and indexing go to ``hits``.
    """

    model_config = ConfigDict(frozen=True)
    hits: tuple[Hit, ...]
    route: str
    """``vector`` or ``hybrid``: the route that ran."""
    reranker: str
    """The reranker that ran (``none`` when results are in fused order)."""
    timings_ms: dict[str, float] = Field(default_factory=dict)
    plan: Any = None
    """The router's plan (a frozen ``Plan``) when the router ran."""

    def __iter__(self) -> Iterator[Hit]:  # type: ignore[override]  # iterate hits, not fields
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, i: int) -> Hit:
        return self.hits[i]

    @property
    def ids(self) -> list[str]:
        """The hit ids in rank order."""
        return [h.id for h in self.hits]


class AddResult(BaseModel):
    """What ``add_many`` did."""

    model_config = ConfigDict(frozen=True)
    added: tuple[str, ...]
    skipped: tuple[str, ...]
    """Ids that already existed (adding is idempotent per id)."""


class ContextResult(BaseModel):
    """Compressed context for a prompt, and where it came from."""

    model_config = ConfigDict(frozen=True)
    text: str
    """The context to put in the prompt; never more than ``budget_tokens`` tokens."""
    tokens: int
    budget_tokens: int
    token_counter: str
    used: tuple[str, ...]
    """Artifact ids rendered, in order (provenance)."""
    dropped: tuple[str, ...]
    hits: tuple[Hit, ...]
    route: str
    reranker: str
    timings_ms: dict[str, float] = Field(default_factory=dict)
    plan: Any = None


class Explain(BaseModel):
    """Every stage of one search: the plan, each channel's candidates, the fused and the
    reranked lists (as ``(id, score)``), which reranker ran and why, and each stage's time."""

    model_config = ConfigDict(frozen=True)
    query_route: str
    plan: Any
    channels: dict[str, list[tuple[str, float]]]
    fused: list[tuple[str, float]]
    reranked: list[tuple[str, float]]
    reranker: str
    reranker_note: str
    paths: dict[str, list[list[tuple[str, str, str]]]]
    """For graph hits: up to three RELATED_TO paths (subject, relation, object) that reached them."""
    hits: tuple[Hit, ...]
    timings_ms: dict[str, float]
    max_hops: int = 0
    """How far the walk was allowed to go."""
    depth_reached: int = 0
    """The longest path the walk found (0 on the vector route): where the chain stopped."""
