"""Projected Artifact rows: fetched by id, and turned into public ``Hit`` objects (the only code that knows their shape)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ..models import Hit
from .cypher import query
from .executor import Executor


def _dt(value: Any) -> datetime | None:
    if value is None:
        return None
    return datetime.fromtimestamp(float(value), tz=UTC)


def rows_by_id(executor: Executor, graph: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The whole rows of the memories ``ids`` that exist (any status), by id: one query."""
    rows = executor.run(graph, query("retrieve/get_artifacts"), {"ids": list(ids)})
    return {str(r["a"]["id"]): r["a"] for r in rows}


def is_whole(a: dict[str, Any]) -> bool:
    """True for an ``a {.id, .text, ...}`` projection; False for a channel's ``{id, valid_at, ...}``
    row of a candidate ranked past the ones it projects whole (see ``retrieve/vector_search``)."""
    return "text" in a


def one_per_key(ids: Sequence[str], rows: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """A ranking (``ids``, best first, whole rows) with one memory per fact key.

    The newest version of a key (latest ``valid_at``, then ``created_at``: the order of
    ``ingest/create_artifacts``) takes the place of the key's best-ranked version, and the other
    versions leave the ranking; memories without a key all stay. Returns one ``(place, shown)``
    pair per place: the id whose rank and score the place keeps, and the id whose row it shows.

    A search's channels are separate queries, so one that ran before a ``key=`` supersession and
    one that ran after it found both versions (issue 50: ~1 % of the searches made while a key
    was being superseded).
    """
    newest: dict[Any, str] = {}
    for i in ids:
        key = rows[i].get("key")
        if key is not None and (key not in newest or _version(rows[i]) > _version(rows[newest[key]])):
            newest[key] = i
    out: list[tuple[str, str]] = []
    placed: set[Any] = set()
    for i in ids:
        key = rows[i].get("key")
        if key is None:
            out.append((i, i))
        elif key not in placed:
            placed.add(key)
            out.append((i, newest[key]))
    return out


def _version(a: Mapping[str, Any]) -> tuple[float, float]:
    return float(a.get("valid_at") or 0.0), float(a.get("created_at") or 0.0)


def hit_from_row(
    a: dict[str, Any],
    score: float,
    channels: dict[str, int] | None = None,
    rerank_score: float | None = None,
    relevance: float | None = None,
) -> Hit:
    """A ``Hit`` from an ``a {.id, .text, ...}`` projection.

    Raises:
        ValueError: ``a`` is an ``{id, valid_at}`` row (a bug: the caller must fetch the whole row).
    """
    if not is_whole(a):
        raise ValueError(f"memory {a.get('id')!r}: a hit needs the whole row, not {sorted(a)}")
    raw_meta = a.get("metadata")
    try:
        meta = json.loads(raw_meta) if raw_meta else {}
    except ValueError:
        meta = {}
    return Hit(
        id=str(a["id"]),
        text=str(a.get("text") or ""),
        kind=str(a.get("kind") or "episode"),
        score=float(score),
        session=a.get("session_id"),
        speaker=a.get("speaker"),
        agent=a.get("agent_id"),
        user=a.get("user_id"),
        created_at=_dt(a.get("created_at")),
        valid_at=_dt(a.get("valid_at")),
        invalid_at=_dt(a.get("invalid_at")),
        status=str(a.get("status") or "active"),
        key=a.get("key"),
        metadata=meta if isinstance(meta, dict) else {},
        channels=dict(channels or {}),
        rerank_score=rerank_score,
        relevance=relevance,
    )
