"""A fact's history: the rows of ``history_by_key``/``history_by_entity`` as ordered entries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..models import HistoryEntry
from ..storage.rows import hit_from_row

__all__ = ["entries"]

_FAR = 2.0**62


def entries(rows: Iterable[dict[str, Any]]) -> tuple[HistoryEntry, ...]:
    """History entries, oldest first: ``valid_at``, then ``created_at``, then the write sequence
    (``seq``: the versions of one ``add_many`` share both times), then id.

    Each row holds ``a`` (the projected artifact), ``replaced_by`` ([{id, reason}]) and
    ``replaced`` (ids); rows without an artifact are skipped.
    """
    keyed: list[tuple[tuple[float, float, int, str], HistoryEntry]] = []
    for r in rows:
        a = r.get("a")
        if not a:
            continue
        h = hit_from_row(a, 0.0)
        by = [b for b in (r.get("replaced_by") or []) if b and b.get("id") is not None]
        entry = HistoryEntry(
            id=h.id, text=h.text, kind=h.kind, status=h.status, key=h.key,
            valid_at=h.valid_at, invalid_at=h.invalid_at, created_at=h.created_at,
            session=h.session,
            superseded_by=str(by[0]["id"]) if by else None,
            reason=str(by[0]["reason"]) if by and by[0].get("reason") is not None else None,
            supersedes=tuple(sorted(str(x) for x in (r.get("replaced") or []))),
        )  # fmt: skip
        order = (
            entry.valid_at.timestamp() if entry.valid_at else _FAR,
            entry.created_at.timestamp() if entry.created_at else _FAR,
            int(a.get("seq") or 0),
            entry.id,
        )
        keyed.append((order, entry))
    keyed.sort(key=lambda pair: pair[0])
    return tuple(entry for _, entry in keyed)
