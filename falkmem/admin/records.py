"""Bulk add from files: the JSONL record schema, paragraph/line text files, per-line problems."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import InputError
from ..ingest.validate import prepare
from ..memory import Memory
from ..tenant import Tenant

MAX_REPORTED = 100
"""At most this many line problems are kept (the total is still counted)."""

RECORD_FIELDS = (
    "id", "text", "kind", "session", "speaker", "agent", "user", "at", "metadata", "key",
    "entities", "triples", "embedding",
)  # fmt: skip
"""The fields a JSONL record may carry (those of :class:`falkmem.Record`)."""


@dataclass(frozen=True, slots=True)
class LineProblem:
    """One bad line of an input file.

    Attributes:
        line: 1-based line number (for ``--file``: the first line of the paragraph).
        problem: what is wrong, without echoing the line's content.
    """

    line: int
    problem: str


class BadLines(InputError):
    """An input file has bad lines; ``problems`` lists them with their numbers."""

    def __init__(self, what: str, problems: Sequence[LineProblem], total: int) -> None:
        self.problems = sorted(problems, key=lambda p: p.line)
        self.total = total
        first = self.problems[0] if self.problems else LineProblem(0, "unknown problem")
        super().__init__(what, f"{total} bad line(s); first: line {first.line}: {first.problem}")


@dataclass(slots=True)
class AddSummary:
    """What a bulk add did.

    Attributes:
        added: ids written.
        skipped: ids that existed already (or repeated in the input): duplicates.
        failed: lines that were refused, with their reasons (nothing of them was written).
        seconds: wall time of the whole add.
    """

    added: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[LineProblem] = field(default_factory=list)
    failed_total: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (counts, ids and problems)."""
        return {
            "added": len(self.added),
            "skipped": len(self.skipped),
            "failed": self.failed_total,
            "added_ids": self.added,
            "skipped_ids": self.skipped,
            "problems": [{"line": p.line, "problem": p.problem} for p in self.failed],
            "seconds": round(self.seconds, 3),
        }


class _Problems:
    def __init__(self) -> None:
        self.kept: list[LineProblem] = []
        self.total = 0

    def add(self, line: int, problem: str) -> None:
        self.total += 1
        if len(self.kept) < MAX_REPORTED:
            self.kept.append(LineProblem(line, problem))


def split_text(text: str, split: Literal["paragraph", "line"]) -> list[tuple[int, str]]:
    """Cut a text file into memories: blank-line separated paragraphs, or non-empty lines.

    Returns:
        ``(first line number, memory text)`` pairs; lines inside a paragraph are joined
        with single newlines and surrounding whitespace is stripped.
    """
    out: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if split == "line":
            if line.strip():
                out.append((number, line.strip()))
            continue
        if line.strip():
            if not current:
                start = number
            current.append(line)
        elif current:
            out.append((start, "\n".join(current).strip()))
            current = []
    if current:
        out.append((start, "\n".join(current).strip()))
    return out


def parse_jsonl(lines: Iterable[str]) -> tuple[list[tuple[int, dict[str, Any]]], _Problems]:
    """Parse JSONL records (blank lines are ignored); keep the good ones and the problems."""
    good: list[tuple[int, dict[str, Any]]] = []
    problems = _Problems()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            problems.add(
                number, f"not valid JSON ({type(exc).__name__} at column {getattr(exc, 'colno', '?')})"
            )
            continue
        if not isinstance(obj, dict):
            problems.add(number, "must be a JSON object")
            continue
        good.append((number, obj))
    return good, problems


def check_records(
    mem: Memory,
    tenant: Tenant,
    numbered: Sequence[tuple[int, dict[str, Any]]],
    problems: _Problems,
) -> list[tuple[int, dict[str, Any]]]:
    """Validate records as ``add_many`` would, plus the embedding dimension of the tenant.

    Returns:
        The records that pass; the others are added to ``problems`` with their line.
    """
    admin = mem.admin
    store = admin.store
    dimension = store.meta(tenant.id).dimension if store.exists(tenant.id) else admin.embedder.dimension
    now = time.time()
    good: list[tuple[int, dict[str, Any]]] = []
    for number, rec in numbered:
        try:
            p = prepare(rec, admin.settings, now=now)
        except InputError as exc:
            problems.add(number, f"{exc.field}: {exc.rule}")
            continue
        if p.embedding is not None and len(p.embedding) != dimension:
            problems.add(number, f"embedding: has {len(p.embedding)} values; this tenant stores {dimension}")
            continue
        good.append((number, rec))
    return good


def add_records(
    tenant: Tenant,
    numbered: Sequence[tuple[int, dict[str, Any]]],
    *,
    batch_size: int = 64,
    on_progress: Callable[[int, int], None] | None = None,
) -> AddSummary:
    """Write checked records through ``Tenant.add_many`` (one atomic query per batch)."""
    started = time.perf_counter()
    out = tenant.add_many([r for _, r in numbered], batch_size=batch_size, on_progress=on_progress)
    return AddSummary(added=list(out.added), skipped=list(out.skipped), seconds=time.perf_counter() - started)


def bulk_add(
    mem: Memory,
    tenant: Tenant,
    numbered: Sequence[tuple[int, dict[str, Any]]],
    problems: _Problems,
    *,
    skip_bad: bool,
    batch_size: int = 64,
    on_progress: Callable[[int, int], None] | None = None,
) -> AddSummary:
    """Check every record first, then write: all or nothing unless ``skip_bad``.

    Raises:
        BadLines: some lines are bad and ``skip_bad`` is False (nothing was written).
    """
    good = check_records(mem, tenant, numbered, problems)
    if problems.total and not skip_bad:
        raise BadLines("input", problems.kept, problems.total)
    summary = (
        add_records(tenant, good, batch_size=batch_size, on_progress=on_progress) if good else AddSummary()
    )
    summary.failed = sorted(problems.kept, key=lambda p: p.line)
    summary.failed_total = problems.total
    return summary


def new_problems() -> _Problems:
    """An empty problem list (for callers that collect their own, e.g. text files)."""
    return _Problems()
