"""Context packing: the sentences of the ranked memories that carry the answer, within a token budget."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from ..config import PackingConfig
from ..errors import InputError
from ..routing.when import find_order
from ..routing.who import asks_the_assistant, role_of
from ..text.tokens import tokenize
from .render import local_day, utc
from .select import Entry, Meter, Selection, Triple, score_entry, select
from .sentences import ANALYSIS_CACHE_SIZE, Analysis, analyse, one_line
from .signals import chain_names, read_query, weigh
from .tokens import TokenCounter, join_bound
from .when import days_named

__all__ = ["ContextItem", "PackedContext", "Source", "pack", "refers_back"]


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One retrieved memory offered to the packer: ``score`` gives the rank (only the order
    counts), turns of one ``session`` share a line, ``at`` is when it became valid (naive: UTC),
    ``superseded`` ones are packed only for history, ``via`` names the graph's bridge entities."""

    id: str
    text: str
    score: float
    session: str | None = None
    at: datetime | None = None
    kind: str = "memory"
    triples: tuple[Triple, ...] = ()
    superseded: bool = False
    speaker: str | None = None
    via: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Source:
    """What label ``[n]`` stands for: its memories in rendered order, their session (None if
    they differ), their times (UTC) and the ids cut to some of their sentences."""

    label: str
    ids: tuple[str, ...]
    session: str | None
    times: tuple[datetime | None, ...]
    partial: tuple[str, ...] = ()

    def legend(self) -> str:
        """``[1] id, id · session · 2023-05-20 09:00`` (the first known time, UTC)."""
        parts = [", ".join(one_line(i) for i in self.ids)]
        if self.session:
            parts.append(one_line(self.session))
        first = next((t for t in self.times if t is not None), None)
        if first is not None:
            parts.append(utc(first).strftime("%Y-%m-%d %H:%M"))
        return f"[{self.label}] " + " · ".join(parts)


@dataclass(frozen=True, slots=True)
class PackedContext:
    """The packed ``text`` ("" when nothing fits) and what went into it: ``tokens`` (never over
    the budget), the memories ``used`` in rendered order (``partial``: cut), the ``dropped`` ones
    best first, whether lines are ``chronological`` (else by rank), and each label's source."""

    text: str
    tokens: int
    used: tuple[str, ...]
    dropped: tuple[str, ...]
    triples_rendered: int
    partial: tuple[str, ...] = ()
    chronological: bool = False
    sources: tuple[Source, ...] = ()


_REFERS_BACK = re.compile(
    r"\b(?:earlier|before|previous(?:ly)?|prior|last\s+time|latest|most\s+recent(?:ly)?|"
    r"recently|history|historical|timeline|over\s+time|when\s+did|used\s+to|originally|"
    r"at\s+first|first\s+time|ago|since|anymore|any\s+more|no\s+longer|still|"
    r"chang(?:e|ed|es|ing)|updat(?:e|ed|es|ing)|evolv(?:e|ed|es|ing)|"
    r"revis(?:e|ed|ion|ions)|switch(?:ed)?|moved)\b",
    re.IGNORECASE,
)
TIMELESS = frozenset({"fact", "document", "preference", "summary"})
"""Kinds whose time is when they were stored, not when something happened: no date rendered."""
_NEAR_DUPLICATE_MEMORY = 0.85
"""Jaccard similarity of two memories' words at which the lower-ranked one is dropped (numbers equal)."""
ASKED_DAYS = 7
"""A question window of at most this many days makes a sentence naming a day in it evidence."""


def refers_back(query: str) -> bool:
    """Whether the query refers back in time ("earlier", "last time", "what changed"...): its
    lines are then ordered by time and superseded facts kept (a question about a sequence).

    >>> refers_back("What did we decide last time about the budget?"), refers_back("Who leads Helios?")
    (True, False)
    """
    return _REFERS_BACK.search(unicodedata.normalize("NFKC", query)) is not None


@functools.lru_cache(maxsize=4 * ANALYSIS_CACHE_SIZE)
def _dedupe_key(text: str) -> str:
    """A memory's (or a triple part's) text as exact duplicates share it (cached)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip(" .!?;,")


def _body(item: ContextItem) -> str:
    """The text to cut: a chat turn's own ``Speaker:`` prefix is left to the renderer."""
    if item.speaker:
        prefix = item.speaker.strip().casefold() + ":"
        text = item.text.lstrip()
        if text[: len(prefix)].casefold() == prefix:
            return text[len(prefix) :]
    return item.text


_SHORT = 400
"""Longer memories are compared by sentences, not words (not to tokenise every long one)."""


class _Kept:
    """A memory kept so far: its analysis and its length."""

    def __init__(self, analysis: Analysis, length: int) -> None:
        self.analysis = analysis
        self.length = length

    @functools.cached_property
    def sig(self) -> tuple[frozenset[str], frozenset[str]]:
        """What near-duplicates share: the words and numbers (short memories), or the sentences."""
        a = self.analysis
        if self.length > _SHORT:
            return frozenset(a.texts), frozenset()
        return a.words, frozenset(w for w in a.words if not w.isalpha())


def _near_duplicate(new: _Kept, kept: Sequence[_Kept]) -> bool:
    length = new.length
    for other in kept:
        if not 0.8 * length <= other.length <= 1.25 * length:
            continue
        x, digits = new.sig
        y, o_digits = other.sig
        if digits == o_digits and x and y and len(x & y) >= _NEAR_DUPLICATE_MEMORY * len(x | y):
            return True
    return False


def _asked_day(item: ContextItem, a: Analysis, window: tuple[date, date], tz: tzinfo) -> frozenset[int]:
    """The sentences whose relative time words ("yesterday") name a day in ``window`` (first
    day, day after), for a memory said on a known day."""
    if item.at is None or item.kind in TIMELESS:
        return frozenset()
    said = local_day(item.at, tz)
    first, after = window
    return frozenset(i for i, t in enumerate(a.texts) if any(first <= d < after for d in days_named(t, said)))


def _by_rank(rank: int, half: float | None) -> float:
    """``1 / (1 + rank / half)`` (1 when ``half`` is None): the rank prior, a bridge's weight."""
    return 1.0 / (1.0 + rank / half) if half else 1.0


def pack(
    query: str,
    items: Sequence[ContextItem],
    *,
    budget_tokens: int,
    counter: TokenCounter,
    history: bool | None = None,
    weights: PackingConfig | None = None,
    dates: bool = True,
    tz: tzinfo = UTC,
    window: tuple[datetime, datetime] | None = None,
) -> PackedContext:
    """Pack the sentences that matter to ``query`` into at most ``budget_tokens`` tokens.

    Drops superseded items (unless history is asked for) and (near-)duplicates of a better
    ranked item, then chooses sentences greedily by gain per token (:mod:`.select`) while the
    rendered text, counted whole with ``counter``, fits (docs/context.md).

    Args:
        history: keep superseded items (True), drop them (False), or only when the query
            refers back (None).
        dates: write the date a relative time word ("yesterday") means after it.
        tz: the zone of the lines' days and of relative time words (sources stay UTC).
        window: the question's time window (``Plan.time``, wall-clock in ``tz``).

    Example:
        >>> from falkmem.context import RegexTokenCounter
        >>> p = pack("who leads helios?", [ContextItem("m1", "Ana leads Helios.", 1.0)],
        ...          budget_tokens=50, counter=RegexTokenCounter())
        >>> p.text, p.sources[0].ids
        ('[1] Ana leads Helios.', ('m1',))
    """
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens <= 0:
        raise InputError("budget_tokens", "must be at least 1")
    w = weights or PackingConfig()
    if w.repeat_latest is not None and find_order(query) == "latest":
        w = w.model_copy(update={"repeat": w.repeat_latest})
    by_time = refers_back(query)  # a question about a sequence of events: lines oldest first
    keep_old = by_time if history is None else history

    ranked = sorted(items, key=lambda it: (-it.score, it.id))
    unique: list[tuple[ContextItem, Analysis]] = []
    kept: list[_Kept] = []
    seen_ids: set[str] = set()
    seen_texts: set[str] = set()
    for item in ranked:
        key = _dedupe_key(item.text)
        if (item.superseded and not keep_old) or not key or item.id in seen_ids or key in seen_texts:
            continue
        a = analyse(_body(item))
        this = _Kept(a, len(item.text))
        if not len(a) or _near_duplicate(this, kept):
            continue
        kept.append(this)
        seen_ids.add(item.id)
        seen_texts.add(key)
        unique.append((item, a))

    analyses = [a for _, a in unique]
    via = [(v, _by_rank(rank, w.chain_half)) for rank, (it, _) in enumerate(unique) for v in it.via]
    bridges = chain_names(via, analyses, query)
    stems, hot = read_query(query, bridges)
    hots = [
        frozenset(i for i, t in enumerate(a.texts) if i == 0 or (hot is not None and hot.search(t.lower())))
        for a in analyses
    ]  # fmt: skip
    wanted = frozenset(stems)
    present = [
        frozenset(w for i in h for w in a.sentence(i).words & wanted)
        for a, h in zip(analyses, hots, strict=True)
    ]
    q = weigh(query, stems, present, bridges)
    on_day: list[frozenset[int]] = [frozenset()] * len(unique)
    if window is not None and w.day > 0:
        first, after = window[0].date(), (window[1] - timedelta(microseconds=1)).date() + timedelta(days=1)
        if (after - first).days <= ASKED_DAYS:
            on_day = [_asked_day(it, a, (first, after), tz) for it, a in unique]
            hots = [h | d for h, d in zip(hots, on_day, strict=True)]
    asked = frozenset(tokenize(query))
    assistant = 1.0 if asks_the_assistant(query) else w.assistant
    dated_days = [(local_day(it.at, tz), it.kind not in TIMELESS) for it, _ in unique if it.at is not None]
    days = {d for d, dated in dated_days if dated}
    # Ordered by time, a timeless memory's date shows only when the candidates' dates differ
    # (documents stored on one day say nothing by their date).
    any_days = {d for d, _ in dated_days}
    show_dates = len(days) > 1 or (by_time and (len(any_days) > 1 or len(days) == 1))
    seen_triples: set[Triple] = set()
    entries: list[Entry] = []
    for rank, ((item, a), h, d) in enumerate(zip(unique, hots, on_day, strict=True)):
        triples = []
        for t in item.triples:
            tk = (_dedupe_key(t[0]), _dedupe_key(t[1]), _dedupe_key(t[2]))
            if all(tk) and tk not in seen_triples:
                seen_triples.add(tk)
                triples.append(t)
        block = f"s:{item.session}" if item.session else f"i:{item.id}"
        prior = _by_rank(rank, w.prior_half)
        if role_of(item.speaker) == "assistant":  # its turns restate the user's words
            prior *= assistant
        dated = item.kind not in TIMELESS
        e = Entry(id=item.id, rank=rank, analysis=a, block=block, speaker=item.speaker, session=item.session,
                  at=item.at, triples=tuple(triples), prior=prior, dated=dated, hot=h, said=dates and dated,
                  on_day=d)  # fmt: skip
        score_entry(e, q, w)
        entries.append(e)

    def run(additive: bool) -> tuple[Selection, str, int]:
        for e in entries:
            e.chosen.clear()
        meter = Meter(counter, additive=additive)
        chosen = select(
            entries, q, w, budget_tokens, meter, by_time=by_time, show_dates=show_dates, asked=asked, tz=tz
        )
        text = "\n".join(chosen.render())
        return chosen, text, counter.count(text)

    chosen, text, tokens = run(join_bound(counter) is not None)
    if tokens > budget_tokens:  # only when a counter's additive claim (or join bound) was wrong
        chosen, text, tokens = run(False)
    sources = []
    for n, members in enumerate(chosen.arrange(), 1):
        sessions = {e.session for e in members}
        sources.append(Source(label=str(n), ids=tuple(e.id for e in members),
                              session=members[0].session if len(sessions) == 1 else None,
                              times=tuple(utc(e.at) if e.at is not None else None for e in members),
                              partial=tuple(e.id for e in members if len(e.chosen) < len(e.analysis))))  # fmt: skip
    used = tuple(i for s in sources for i in s.ids)
    return PackedContext(
        text=text,
        tokens=tokens,
        used=used,
        dropped=tuple(dict.fromkeys(it.id for it in ranked if it.id not in used)),
        triples_rendered=len(chosen.triples),
        partial=tuple(i for s in sources for i in s.partial),
        chronological=by_time,
        sources=tuple(sources),
    )
