"""The shapes every dataset adapter yields: memories, questions with gold ids, tenants."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class DatasetMissing(Exception):
    """A dataset's files are not where they were expected (the CLI exits 2)."""


class DatasetInvalid(Exception):
    """A dataset's files exist but break the documented format (the CLI exits 2)."""


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One memory to store, with a stable id the questions' gold lists refer to."""

    id: str
    text: str
    kind: str = "episode"
    session: str | None = None
    speaker: str | None = None
    user: str | None = None
    at: str | None = None
    metadata: dict[str, Any] | None = None
    entities: tuple[str, ...] | None = None
    triples: tuple[tuple[str, str, str], ...] | None = None

    def record(self) -> dict[str, Any]:
        """The dict ``Tenant.add_many`` takes (unset fields left out)."""
        out: dict[str, Any] = {"id": self.id, "text": self.text, "kind": self.kind}
        for name in ("session", "speaker", "user", "at", "metadata", "entities", "triples"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Question:
    """A question, the ids of every memory needed to answer it, and how many hops it spans."""

    id: str
    text: str
    gold: tuple[str, ...]
    hops: int = 1
    category: str = "fact"
    gold_sessions: tuple[str, ...] = ()
    """Sessions holding the evidence (LongMemEval): a ranked memory counts for its session."""
    now: str | None = None
    """When the question is asked (ISO-8601; LongMemEval's ``question_date``): the reference
    time of relative dates in it ("last Saturday"), passed to ``search(now=...)``."""


@dataclass
class TenantData:
    """One tenant's memories and questions (a dataset may yield several, e.g. with/without triples)."""

    tenant: str
    memories: list[MemoryItem]
    questions: list[Question]
    note: str = ""
    group: str = ""
    """Tenants of one group are reported together (LongMemEval: one tenant per question); default: the tenant."""

    def __post_init__(self) -> None:
        if not self.group:
            self.group = self.tenant

    def session_of(self) -> dict[str, str]:
        """Memory id → session id (only memories that have a session)."""
        return {m.id: m.session for m in self.memories if m.session is not None}


@dataclass
class Dataset:
    """A named dataset: its tenants and a description of where it came from."""

    name: str
    tenants: list[TenantData]
    info: dict[str, Any] = field(default_factory=dict)
    class_by: str = "category"
    """The question facet reports break down by first: ``category`` (MuSiQue hops, LongMemEval types) or ``hops``."""

    def check(self) -> None:
        """Raise DatasetInvalid when a question's gold id names no memory of its tenant."""
        for t in self.tenants:
            ids = {m.id for m in t.memories}
            if len(ids) != len(t.memories):
                raise DatasetInvalid(f"tenant {t.tenant!r}: memory ids are not unique")
            for q in t.questions:
                if not q.gold:
                    raise DatasetInvalid(f"question {q.id!r} has no gold memory ids")
                missing = [g for g in q.gold if g not in ids]
                if missing:
                    raise DatasetInvalid(f"question {q.id!r}: gold ids {missing[:3]} are not memories")
            sessions = {m.session for m in t.memories}
            for q in t.questions:
                lost = [s for s in q.gold_sessions if s not in sessions]
                if lost:
                    raise DatasetInvalid(f"question {q.id!r}: gold sessions {lost[:3]} hold no memories")
