"""Forgetting: erase memories (deleted, not flagged) and the graph evidence that only they held.

An erased memory is deleted: its node goes with its text, embedding (so it leaves the vector
index), metadata, attribution and every link; no tombstone is kept, so nothing of the text can
be found again. Then, per page of ids, in this order (each step idempotent, so a rerun after a
crash completes the job):

1. ``RELATED_TO`` evidence: an edge whose evidence held only erased ids is deleted;
   otherwise the ids leave it and the weight shrinks in proportion.
2. The artifacts themselves, and the keyword statistics (``_Meta.n_docs``/``n_tokens``).
3. Entities no remaining memory references are deleted; the others' ``mentions`` recounted.
4. Sessions left empty are deleted (and, for ``forget(user=...)``, the user's node).

A superseded version whose successor is erased stays superseded: erasing a correction does
not make the corrected value true again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..ingest.aggregate import EVIDENCE_KEEP, EVIDENCE_SEP, EVIDENCE_SPILL_AT
from ..ingest.validate import valid_unicode
from ..models import ForgetResult
from ..storage.cypher import query
from ..storage.executor import Executor

__all__ = ["Selector", "erase_ids", "forget", "selector"]

_MAX_ROUNDS = 10_000  # pages; a bound, so a writer adding as fast as we erase cannot loop us forever


@dataclass(frozen=True, slots=True)
class Selector:
    """Which memories ``forget`` erases: exactly one of an id, a session or a user."""

    id: str | None = None
    session: str | None = None
    user: str | None = None


def selector(id: object, session: object, user: object) -> Selector:
    """Validate ``forget``'s arguments.

    Raises:
        InputError: no selector, more than one, or one that is not a non-empty string.
    """
    given = {k: v for k, v in (("id", id), ("session", session), ("user", user)) if v is not None}
    if not given:
        raise InputError("forget", "name what to forget: an id, session=... or user=...")
    if len(given) > 1:
        raise InputError("forget", f"give exactly one of id, session, user (got {sorted(given)})")
    [(name, value)] = given.items()
    if not isinstance(value, str) or not value.strip():
        raise InputError(name, "must be a non-empty string")
    return Selector(**{name: valid_unicode(value, name)})


def erase_ids(executor: Executor, graph: str, ids: list[str]) -> tuple[ForgetResult, list[str]]:
    """Erase one page of memories (steps 1–4 but the user node); returns the result and the
    entity keys that were deleted (to drop from the in-process known-entity index)."""
    if not ids:
        return ForgetResult(), []
    edges = executor.run(
        graph, query("evolve/forget_edges"),
        {"ids": ids, "sep": EVIDENCE_SEP, "spill_at": EVIDENCE_SPILL_AT, "keep": EVIDENCE_KEEP},
    )  # fmt: skip
    arts = executor.run(graph, query("evolve/forget_artifacts"), {"ids": ids})
    empty: dict[str, Any] = {"deleted": 0, "tokens": 0, "gone": [], "keys": [], "sessions": []}
    a = arts[0] if arts else empty
    keys = sorted({str(k) for k in a["keys"] or []})
    removed: list[str] = []
    if keys:
        pr = executor.run(graph, query("evolve/prune_entities"), {"keys": keys})
        removed = [str(k) for k in (pr[0]["removed"] if pr else [])]
    sessions = sorted({str(s) for s in a["sessions"] or []})
    n_sessions = 0
    if sessions:
        ps = executor.run(graph, query("evolve/prune_sessions"), {"ids": sessions})
        n_sessions = int(ps[0]["removed"]) if ps else 0
    e: dict[str, Any] = edges[0] if edges else {"removed": 0, "updated": 0}
    result = ForgetResult(
        artifacts=int(a["deleted"] or 0), tokens=int(a["tokens"] or 0),
        edges_removed=int(e["removed"] or 0), edges_updated=int(e["updated"] or 0),
        entities_removed=len(removed), sessions_removed=n_sessions,
        ids=tuple(str(i) for i in a["gone"] or []),
    )  # fmt: skip
    return result, removed


def forget(
    executor: Executor,
    graph: str,
    sel: Selector,
    *,
    page: int,
    on_removed_entities: Callable[[list[str]], None],
) -> ForgetResult:
    """Erase every memory the selector names, one atomic page at a time.

    Args:
        executor: the query executor.
        graph: the tenant graph.
        sel: what to erase.
        page: memories per page.
        on_removed_entities: told the keys of the entities deleted (cache upkeep).

    Returns:
        The totals.
    """
    total = ForgetResult()
    pages: Callable[[], list[str]] | None = None
    if sel.id is None:
        name, params = (
            ("evolve/select_by_session", {"session": sel.session, "limit": page})
            if sel.session is not None
            else ("evolve/select_by_user", {"user": sel.user, "limit": page})
        )

        def select() -> list[str]:
            return [str(r["id"]) for r in executor.run(graph, query(name), params)]

        pages = select
    first = [sel.id] if sel.id is not None else pages() if pages is not None else []
    ids = first
    for _ in range(_MAX_ROUNDS):
        if not ids:
            break
        result, removed = erase_ids(executor, graph, ids)
        total = total + result
        if removed:
            on_removed_entities(removed)
        if pages is None or result.artifacts == 0:
            break
        ids = pages()
    if sel.user is not None:
        u = executor.run(graph, query("evolve/forget_user_node"), {"user": sel.user})
        total = total + ForgetResult(users_removed=int(u[0]["removed"]) if u else 0)
    return total
