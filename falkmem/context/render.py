"""How a packed context reads: one line per source, a short label, the date once.

The format (docs/context.md, "The format")::

    [1] 20 May 2023 user: I booked TP 1234 to Lisbon. … assistant: Your code is QX7RTP.
    [2] Brannock Falls: Brannock Falls is a waterfall in northern Wales.
    Connections: Atlas team -built-> Project Helios; Priya Chandran -leads-> Atlas team
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo

from .sentences import Analysis, one_line
from .when import anchor, day_text

__all__ = ["CONNECTIONS", "Piece", "day", "legend_line", "line_parts", "local_day", "triple_text"]

CONNECTIONS = "Connections:"


def utc(at: datetime) -> datetime:
    """Aware datetimes in UTC; naive ones taken as UTC."""
    return at.astimezone(UTC) if at.tzinfo is not None else at.replace(tzinfo=UTC)


def local_day(at: datetime, tz: tzinfo = UTC) -> date:
    """The calendar day of ``at`` in ``tz`` (naive datetimes taken as UTC)."""
    return utc(at).astimezone(tz).date()


def day(at: datetime, tz: tzinfo = UTC) -> str:
    """``20 May 2023``, the day in ``tz``: fewer tokens than ISO and no day/month ambiguity."""
    return day_text(local_day(at, tz))


@dataclass(frozen=True, slots=True)
class Piece:
    """One memory's part of a line: what to render of it.

    Attributes:
        analysis: the memory, cut.
        chosen: indices of its sentences to render, in any order.
        speaker: who said it (chat turns), or None.
        said: the day it was said (chat turns, events): its relative time words ("yesterday")
            get the date they mean (:func:`.when.anchor`); None: left as written.
        shown: the day its line shows, if any ("today" then needs no date).
    """

    analysis: Analysis
    chosen: frozenset[int]
    speaker: str | None = None
    said: date | None = None
    shown: date | None = None

    def parts(self) -> list[str]:
        """``[Title:] [speaker:] s1 … s3``: its pieces, to be joined by single spaces."""
        a = self.analysis
        body: list[str] = []
        last = -2
        for i in sorted(self.chosen):
            if body and i != last + 1:
                body.append("…")
            body.append(a.texts[i] if self.said is None else anchor(a.texts[i], self.said, self.shown))
            last = i
        head: list[str] = []
        if a.title is not None and (not body or a.title.casefold() not in body[0].casefold()):
            head.append(a.title + ":")
        if self.speaker:
            head.append(one_line(self.speaker) + ":")
        return head + body


def line_parts(label: str, date: str | None, pieces: Sequence[Piece]) -> list[str]:
    """The parts of one source's line, ``[label] [date ]piece piece…``, to be joined by single
    spaces (pieces of one speaker joined by ``…``)."""
    out = [f"[{label}]"]
    if date:
        out.append(date)
    for n, p in enumerate(pieces):
        if n and not p.speaker and not p.analysis.title:
            out.append("…")
        out += p.parts()
    return out


def legend_line(label: str, ids: Sequence[str], session: str | None, at: datetime | None) -> str:
    """``[label] id, id · session · 2023-05-20 09:00`` (UTC; missing parts left out)."""
    parts = [", ".join(one_line(i) for i in ids)]
    if session:
        parts.append(one_line(session))
    if at is not None:
        parts.append(utc(at).strftime("%Y-%m-%d %H:%M"))
    return f"[{label}] " + " · ".join(parts)


def triple_text(triple: tuple[str, str, str]) -> str:
    """``subject -relation-> object``."""
    subject, relation, obj = (one_line(part) for part in triple)
    return f"{subject} -{relation}-> {obj}"
