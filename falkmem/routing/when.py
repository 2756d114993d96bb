"""Time in the question: the window (``[start, end)``, naive) of the first time expression a query
names ("on 23.01.2024", "last Saturday", "in May"), resolved against when it is asked; the answer
is in memories of that time, which often share nothing else with it. Regular expressions, not
``dateparser`` (which finds dates in "May I ask…", is slow and cannot tell a written-out date)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from ..text.dates import MONTH_WORDS, WEEKDAY_NAMES, WEEKDAYS, month_number

__all__ = ["Order", "TimeRef", "find_order", "find_time"]

Order = Literal["latest", "earliest"]


@dataclass(frozen=True, slots=True)
class TimeRef:
    """The window a time expression names (naive: wall-clock time where the asker lives), the
    words it was read from, and whether the date is written out (not relative)."""

    start: datetime
    end: datetime
    text: str
    explicit: bool


_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a couple": 2, "couple of": 2,
    "a few": 3, "few": 3, "several": 4,
}  # fmt: skip
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30.44, "year": 365.25}

_MONTH = r"(?P<month>" + MONTH_WORDS + r")\.?"
_WEEKDAY_FULL = r"(?P<weekday>" + "|".join(WEEKDAY_NAMES) + r")"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_COUNT = (
    r"(?P<count>\d{1,3}|" + "|".join(re.escape(k) for k in sorted(_NUMBERS, key=len, reverse=True)) + r")"
)
_UNIT = r"(?P<unit>day|week|month|year)s?"
# "may" and "march" are words too: a bare month name counts after a preposition or before a day/year.
_MONTH_CUE = r"(?:in|on|during|since|until|till|by|before|after|from|of|last|this|next|early|mid|late|end\s+of|beginning\s+of)\s+(?:the\s+)?"

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx, re.IGNORECASE))
    for name, rx in (
        ("iso", r"\b(?P<year>\d{4})[-/](?P<month>\d{1,2})[-/](?P<day>\d{1,2})\b"),
        ("dotted", r"\b(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<year>\d{4}|\d{2})\b"),
        ("slashed", r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4}|\d{2})\b"),
        ("month_day_year", r"\b" + _MONTH + r"\s+" + _DAY + r"(?:\s*,\s*|\s+)" + _YEAR + r"\b"),
        ("day_month_year", r"\b(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"(?:\s*,\s*|\s+)" + _YEAR + r"\b"),
        ("month_day", r"\b" + _MONTH + r"\s+" + _DAY + r"\b(?!\s*(?::|am\b|pm\b|%|[.,]\d))"),
        ("day_month", r"\b(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b"),
        ("month_year", r"\b" + _MONTH + r"\s+(?:of\s+)?" + _YEAR + r"\b"),
        ("month", r"\b" + _MONTH_CUE + _MONTH + r"\b"),
        ("year", r"\b(?:in|during|since|from|of|by|year)\s+(?:the\s+year\s+)?" + _YEAR + r"\b"),
        ("today", r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b"),
        ("yesterday", r"\b(?:yesterday|last\s+night)\b"),
        ("ago", r"\b" + _COUNT + r"\s+" + _UNIT + r"\s+ago\b"),
        ("past", r"\b(?:in\s+|over\s+|during\s+)?(?:the\s+)?(?:past|last|previous)\s+" + _COUNT + r"\s+" + _UNIT + r"\b"),
        ("last_unit", r"\b(?P<which>last|this|previous|past)\s+(?P<unit>week|weekend|month|year)\b"),
        ("weekday", r"\b(?P<which>last|this|on|past)\s+" + _WEEKDAY_FULL + r"\b"),
        ("recent", r"(?<!most )\b(?:recently|lately|these\s+days)\b"),  # "most recently" asks for an order
    )
)  # fmt: skip

_LATEST = re.compile(r"\b(?:latest|most\s+recent(?:ly)?|newest|current(?:ly)?|now|updated?)\b", re.IGNORECASE)
_EARLIEST = re.compile(
    r"\b(?:first|initially|originally|earliest|at\s+first|in\s+the\s+beginning)\b", re.IGNORECASE
)


def find_order(text: str) -> Order | None:
    """Whether the query asks for the latest state ("current", "now") or the earliest ("first",
    "originally"); None when neither or both."""
    late, early = _LATEST.search(text) is not None, _EARLIEST.search(text) is not None
    if late == early:
        return None
    return "latest" if late else "earliest"


def _day(year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day)
    except ValueError:
        return None


def _year(text: str) -> int:
    y = int(text)
    return y + 2000 if y < 100 else y


def _month_window(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1)
    end = datetime(year + (month == 12), month % 12 + 1, 1)
    return start, end


def _past_year(month: int, day: int | None, now: datetime) -> int:
    """The year of the latest ``month`` (``day``) not after ``now``: questions look back."""
    probe = (month, day or 1)
    return now.year if probe <= (now.month, now.day) else now.year - 1


def _naive(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(UTC).replace(tzinfo=None)
    return now.astimezone(UTC).replace(tzinfo=None) if now.tzinfo is not None else now


def find_time(text: str, now: datetime | None = None) -> TimeRef | None:
    """The window of the first time expression in ``text``, or None. Relative words and dates
    without a year resolve against ``now`` (naive: wall-clock time; aware: taken in UTC; default
    the clock)."""
    ref = _naive(now)
    found: list[tuple[int, int, TimeRef]] = []
    for name, rx in _PATTERNS:
        for m in rx.finditer(text):
            got = _resolve(name, m, ref)
            if got is not None:
                found.append((m.start(), m.end(), got))
    if not found:
        return None
    # A written-out date wins over a relative word ("recently before 5 January 2024"); then the
    # first in the text; of matches that overlap it, the narrowest window, then the longest
    # words ("on January 6 2024" is a day, not the month "on January").
    explicit = [f for f in found if f[2].explicit] or found
    first = min(explicit, key=lambda f: (f[0], -(f[1] - f[0])))
    overlapping = [f for f in explicit if f[0] < first[1] and first[0] < f[1]]
    return min(overlapping, key=lambda f: (f[2].end - f[2].start, f[0] - f[1], f[0]))[2]


def _resolve(name: str, m: re.Match[str], now: datetime) -> TimeRef | None:
    g = m.groupdict()
    words = m.group(0).strip()
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    one_day = timedelta(days=1)
    if name in ("iso", "dotted", "slashed", "month_day_year", "day_month_year", "month_day", "day_month"):
        if name == "slashed":
            a, b = int(g["a"]), int(g["b"])
            month, day = (b, a) if a > 12 else (a, b)  # 1/23/2024 is US; 23/1/2024 can only be D/M
        else:
            day = int(g["day"])
            month = int(g["month"]) if name in ("iso", "dotted") else month_number(g["month"])
        year = _year(g["year"]) if g.get("year") else _past_year(month, day, now)
        d = _day(year, month, day)
        return TimeRef(d, d + one_day, words, True) if d else None
    if name in ("month_year", "month"):
        month = month_number(g["month"])
        year = int(g["year"]) if g.get("year") else _past_year(month, None, now)
        if name == "month" and re.match(r"(?i)next\b", words):
            year = now.year if month > now.month else now.year + 1
        start, end = _month_window(year, month)
        return TimeRef(start, end, words, True)
    if name == "year":
        y = int(g["year"])
        return TimeRef(datetime(y, 1, 1), datetime(y + 1, 1, 1), words, True)
    if name == "today":
        return TimeRef(today, today + one_day, words, False)
    if name == "yesterday":
        return TimeRef(today - one_day, today, words, False)
    if name == "ago":
        days = _count(g["count"]) * _UNIT_DAYS[g["unit"].lower()]
        center = today - timedelta(days=days)
        slack = timedelta(days=max(1.0, days * 0.25))
        return TimeRef(center - slack, center + one_day + slack, words, False)
    if name == "past":
        days = _count(g["count"]) * _UNIT_DAYS[g["unit"].lower()]
        return TimeRef(today - timedelta(days=days), today + one_day, words, False)
    if name == "last_unit":
        which, unit = g["which"].lower(), g["unit"].lower()
        if unit in ("week", "weekend"):
            monday = today - timedelta(days=today.weekday())
            if unit == "weekend":
                sat = monday - timedelta(days=2) if which != "this" else monday + timedelta(days=5)
                return TimeRef(sat, sat + 2 * one_day, words, False)
            start = monday if which == "this" else monday - timedelta(days=7)
            return TimeRef(start, start + timedelta(days=7), words, False)
        if unit == "month":
            first = today.replace(day=1)
            if which != "this":
                first = (first - one_day).replace(day=1)
            return TimeRef(*_month_window(first.year, first.month), words, False)
        y = today.year if which == "this" else today.year - 1
        return TimeRef(datetime(y, 1, 1), datetime(y + 1, 1, 1), words, False)
    if name == "weekday":
        target = WEEKDAYS[g["weekday"].lower()]
        back = (today.weekday() - target) % 7
        if back == 0 and g["which"].lower() != "this":
            back = 7
        on = today - timedelta(days=back)
        return TimeRef(on, on + one_day, words, False)
    if name == "recent":
        return TimeRef(today - timedelta(days=30), today + one_day, words, False)
    return None


def _count(text: str) -> float:
    t = " ".join(text.lower().split())
    return float(_NUMBERS[t]) if t in _NUMBERS else float(t)
