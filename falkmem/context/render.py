"""How a packed context reads: one line per source, ``[n] [date] [Title: |speaker: ]sentence …
sentence``, then ``Connections: a -rel-> b; ...`` (docs/context.md, "The format")."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, tzinfo

from .sentences import Analysis, one_line
from .when import anchor

__all__ = ["local_day", "memory_parts", "triple_text", "utc"]


def utc(at: datetime) -> datetime:
    """Aware datetimes in UTC; naive ones taken as UTC."""
    return at.astimezone(UTC) if at.tzinfo is not None else at.replace(tzinfo=UTC)


def local_day(at: datetime, tz: tzinfo = UTC) -> date:
    """The calendar day of ``at`` in ``tz`` (naive datetimes taken as UTC)."""
    return utc(at).astimezone(tz).date()


def memory_parts(
    a: Analysis, chosen: Iterable[int], speaker: str | None, said: date | None, shown: date | None
) -> list[str]:
    """One memory's part of a line, ``[Title:] [speaker:] s1 … s3``, to be joined by spaces;
    its relative time words get dates read against ``said`` (None: as written)."""
    body: list[str] = []
    last = -2
    for i in sorted(chosen):
        if body and i != last + 1:
            body.append("…")
        body.append(a.texts[i] if said is None else anchor(a.texts[i], said, shown))
        last = i
    head: list[str] = []
    if a.title is not None and (not body or a.title.casefold() not in body[0].casefold()):
        head.append(a.title + ":")
    if speaker:
        head.append(one_line(speaker) + ":")
    return head + body


def triple_text(triple: tuple[str, str, str]) -> str:
    """``subject -relation-> object``."""
    subject, relation, obj = (one_line(part) for part in triple)
    return f"{subject} -{relation}-> {obj}"
