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
    """One recalled memory, in rank order.

    ``score`` is the fused score (higher is better): it orders the hits of one result and means
    nothing across results (it adds up channels and adjustments and can pass 1).
    ``relevance`` is how likely this memory is relevant evidence for the question, in [0, 1], on
    one scale for every question and tenant (fitted on the dev sets: of their hits near 0.4,
    about four in ten were gold evidence): compare and threshold it (``search(min_relevance=...)``,
    docs/relevance.md). ``rerank_score`` is the cross-encoder's score when this memory was in the
    reranked head (None otherwise, and whenever no reranker ran). With a reranker the order
    follows ``rerank_score`` within the head, so order, not ``score``, is the final ranking.
    """

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
    rerank_score: float | None = None
    """The reranker's score, for the memories it reranked."""
    relevance: float | None = None
    """How likely this memory is relevant evidence, in [0, 1] (``ranking/relevance.py``); set on
    every search hit, None on what ``list`` returns."""


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


class ContextSource(BaseModel):
    """What one label of a context's text stands for (``[1]`` → ``label="1"``)."""

    model_config = ConfigDict(frozen=True)
    label: str
    ids: tuple[str, ...]
    """The memories on that line, in rendered order (turns of one session share a label)."""
    session: str | None = None
    """Their session (None when they have none, or differ)."""
    times: tuple[datetime | None, ...] = ()
    """Each memory's time (``valid_at``, UTC), in the order of ``ids``."""
    partial: tuple[str, ...] = ()
    """The ids rendered as some of their sentences only."""


class ContextResult(BaseModel):
    """Compressed context for a prompt, and where it came from.

    The text labels each line ``[1]``, ``[2]``...; ``sources`` maps every label to its memory
    ids, session and times, and ``legend`` renders that map as text (docs/context.md).
    """

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
    sources: tuple[ContextSource, ...] = ()
    """What each label of ``text`` stands for, in rendered order."""

    @property
    def legend(self) -> str:
        """``Sources:`` then one ``[n] id, id · session · YYYY-MM-DD HH:MM`` line per label
        ("" when nothing was packed). Not counted in ``tokens``: append it to the text only
        when the agent must cite memory ids."""
        from .context.pack import Source  # the one renderer of legend lines

        lines = [Source(s.label, s.ids, s.session, s.times).legend() for s in self.sources]
        return "\n".join(["Sources:", *lines]) if lines else ""


class StageInfo(BaseModel):
    """What one stage of a search did (``falkmem.config.STAGES``; ``Explain.stages``).

    ``kind``: ``route``, ``channel``, ``fusion``, ``adjustment``, ``rerank``, or ``contribution``
    (a channel's weighted share of each fused score). ``ran`` is False for a stage switched off
    (``Settings.off``) or with nothing to do; ``candidates``: what a channel proposed or an
    adjustment moved; ``added``: what it added to each memory's score."""

    model_config = ConfigDict(frozen=True)
    name: str
    kind: str
    ran: bool = True
    ms: float = 0.0
    candidates: int = 0
    note: str = ""
    added: dict[str, float] = Field(default_factory=dict)


class Explain(BaseModel):
    """Every stage of one search: the plan, each channel's candidates, the fused and the
    reranked lists (as ``(id, score)``), which reranker ran and why, and each stage's time and
    contribution (``stages``)."""

    model_config = ConfigDict(frozen=True)
    query_route: str
    plan: Any
    channels: dict[str, list[tuple[str, float]]]
    fused: list[tuple[str, float]]
    reranked: list[tuple[str, float]]
    """The reranked head, by reranker score (empty when no reranker ran)."""
    reranker: str
    reranker_note: str
    paths: dict[str, list[list[tuple[str, str, str]]]]
    """For graph hits: up to three RELATED_TO steps (subject, relation, object) that reached them."""
    hits: tuple[Hit, ...]
    timings_ms: dict[str, float]
    max_hops: int = 0
    """How far the graph channel was allowed to go (1: over shared entities; 2: plus RELATED_TO)."""
    depth_reached: int = 0
    """How far it went (0 on the vector route or when it reached nothing): where the chain stopped."""
    via: dict[str, list[str]] = Field(default_factory=dict)
    """For graph hits: the bridge entities (named by the first vector hits) they were reached through."""
    linked: dict[str, str] = Field(default_factory=dict)
    """For links hits: the seed id (a turn before or after it) or the shared identifier's name."""
    units: dict[str, float] = Field(default_factory=dict)
    """What fusion divided a channel's scores by (``keyword``: the question's idf mass)."""
    similarity: dict[str, float] = Field(default_factory=dict)
    """Cosine similarity to the question of the graph and links candidates (fusion adds it)."""
    leanings: dict[str, dict[str, float]] = Field(default_factory=dict)
    """What each leaning added to (or took from) a candidate's fused score (``speaker``, ``role``,
    ``asks``, ``impersonal``, ``time``, ``order``; ``ranking/leanings.py``); the
    ``fused`` scores include them. Candidates no leaning touched are absent."""
    stages: list[StageInfo] = Field(default_factory=list)
    """Every stage in the order it ran, with what it added to each candidate's score."""
    weights: dict[str, float] = Field(default_factory=dict)
    """Each channel's fusion weight in this search (its setting times its reliability)."""


# --- memory that evolves ----------------------------------------------------------------------


class HistoryEntry(BaseModel):
    """One version in a fact's history.

    ``superseded_by`` is the id of the version that replaced it (None for the current one),
    ``supersedes`` the ids it replaced; ``invalid_at`` is when it stopped being true.
    """

    model_config = ConfigDict(frozen=True)
    id: str
    text: str
    kind: str
    status: str
    key: str | None = None
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    created_at: datetime | None = None
    session: str | None = None
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    reason: str | None = None
    """Why it was replaced: ``key`` (a new value for its key) or the classifier's verdict."""


class History(BaseModel):
    """A fact's versions, oldest first (by ``valid_at``, then ``created_at``)."""

    model_config = ConfigDict(frozen=True)
    key: str | None = None
    entity: str | None = None
    entries: tuple[HistoryEntry, ...]

    def __iter__(self) -> Iterator[HistoryEntry]:  # type: ignore[override]  # iterate entries
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, i: int) -> HistoryEntry:
        return self.entries[i]

    @property
    def current(self) -> HistoryEntry | None:
        """The active version, if any."""
        return next((e for e in reversed(self.entries) if e.status == "active"), None)


class ForgetResult(BaseModel):
    """What ``forget`` (or retention) erased. Erased memories are deleted, not flagged."""

    model_config = ConfigDict(frozen=True)
    artifacts: int = 0
    """Memories erased (node, text, embedding, metadata and links deleted)."""
    tokens: int = 0
    """Their tokens, removed from the keyword statistics."""
    edges_removed: int = 0
    """RELATED_TO edges whose only evidence was erased."""
    edges_updated: int = 0
    """RELATED_TO edges that lost some evidence (ids removed, weight reduced)."""
    entities_removed: int = 0
    """Entities left with no supporting memory, deleted."""
    sessions_removed: int = 0
    """Sessions left empty, deleted."""
    users_removed: int = 0
    ids: tuple[str, ...] = ()
    """The erased memory ids."""

    def __add__(self, other: ForgetResult) -> ForgetResult:
        return ForgetResult(**{f: getattr(self, f) + getattr(other, f) for f in type(self).model_fields})


class MaintainResult(BaseModel):
    """What ``maintain()`` did: retention by kind, and orphan clean-up."""

    model_config = ConfigDict(frozen=True)
    expired: dict[str, int] = Field(default_factory=dict)
    """Memories erased per kind because they outlived the kind's TTL."""
    forgotten: ForgetResult = Field(default_factory=ForgetResult)
    orphan_entities_removed: int = 0
    empty_sessions_removed: int = 0


class ConsolidateResult(BaseModel):
    """Near-duplicate groups found and linked under one canonical fact."""

    model_config = ConfigDict(frozen=True)
    scanned: int
    groups: tuple[tuple[str, ...], ...]
    """Each group: the canonical id first, then its duplicates."""
    linked: int
    """Duplicates linked (``DUPLICATE_OF`` → canonical, status ``superseded``)."""
    threshold: float
    truncated: bool = False
    """True when more active memories existed than ``consolidate_max`` (scan was bounded)."""


class Hub(BaseModel):
    """An entity and its degree."""

    model_config = ConfigDict(frozen=True)
    key: str
    name: str
    degree: int
    """RELATED_TO edges, both directions."""
    references: int
    """Memories that reference it."""


class HealthReport(BaseModel):
    """The shape of a tenant's memory: what consolidation and the hub guard need to know."""

    model_config = ConfigDict(frozen=True)
    artifacts: dict[str, int]
    """Memories per status."""
    entities: int
    orphan_entities: int
    """Entities no memory references."""
    related_edges: int
    edges: int
    """Every edge of the graph."""
    nodes: int
    edges_per_node: float
    related_per_entity: float
    superseded_ratio: float
    """superseded / (active + superseded)."""
    duplicate_candidates: int
    """Pairs of active memories at or above the consolidation threshold."""
    hubs: tuple[Hub, ...]
    """The largest entities by RELATED_TO degree."""


class ReconcileDecision(BaseModel):
    """One classified pair and what was done about it."""

    model_config = ConfigDict(frozen=True)
    other: str
    relation: str
    """duplicate, refinement, supersession, contradiction or unrelated."""
    similarity: float
    action: str
    """``linked_duplicate``, ``superseded``, ``kept`` (the other is newer) or ``none``."""
    winner: str | None = None


class ReconcileResult(BaseModel):
    """What ``reconcile`` decided for one memory against its nearest neighbours."""

    model_config = ConfigDict(frozen=True)
    id: str
    decisions: tuple[ReconcileDecision, ...]


class MemoryPage(BaseModel):
    """One page of ``Tenant.list``: memories oldest first, and the cursor of the next page.

    Iterating and ``len()`` go to ``items``.
    """

    model_config = ConfigDict(frozen=True)
    items: tuple[Hit, ...]
    next_cursor: str | None = None
    """Pass as ``cursor=`` for the next page; None on the last page."""

    def __iter__(self) -> Iterator[Hit]:  # type: ignore[override]  # iterate items, not fields
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
