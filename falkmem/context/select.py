"""Choosing sentences for a budget: greedy by gain per token, never over budget.

A candidate is a group of a memory's sentences (:func:`candidates`), its gain what they add
(:mod:`.signals`), its cost their tokens. Gains only shrink as the context grows (but for an
update's), so a candidate is re-scored lazily at the top of the heap; fits are counted exactly."""

from __future__ import annotations

import heapq
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo

from ..config import PackingConfig
from ..keyword.stem import stem
from ..text.tokens import tokenize
from .render import local_day, memory_parts, triple_text, utc
from .sentences import Analysis, Sentence
from .signals import Query
from .tokens import RegexTokenCounter, TokenCounter, join_bound
from .when import day_text

__all__ = ["Entry", "Meter", "Selection", "candidates", "score_entry", "select"]

Triple = tuple[str, str, str]
_NEAR_DUPLICATE = 0.8
"""Jaccard similarity of two sentences' words at which the later one adds nothing (numbers equal)."""
_UPDATE = 0.5
"""Jaccard similarity at which a sentence with other numbers is an update ("one night" → "two nights")."""
_PRONOUNS = frozenset({"it", "its", "he", "his", "him", "she", "her", "they", "their", "them"})
"""With a title rendered, these point at the title: the sentence can stand alone."""
_SHARED: dict[str, int] = {}
_SHARED_MAX = 200_000
"""Line counts of the default counter, kept across calls (it is pure), up to this many."""
_CHARS_PER_TOKEN = 4.0
"""For ranking candidates before they are counted."""


class Meter:
    """Counts newline-joined lines: exactly, or by summing cached line counts (additive)."""

    def __init__(self, counter: TokenCounter, *, additive: bool) -> None:
        self.counter = counter
        self.additive = additive
        self.join = (join_bound(counter) or 0) if additive else 0
        self._cache: dict[str, int] = _SHARED if type(counter) is RegexTokenCounter else {}
        self.spaced = additive and type(counter) is RegexTokenCounter
        """The default counter's counts add over spaces too."""

    def line(self, text: str) -> int:
        """Tokens of one line or sentence (cached)."""
        n = self._cache.get(text)
        if n is None:
            if len(self._cache) >= _SHARED_MAX:
                self._cache.clear()
            n = self._cache[text] = self.counter.count(text)
        return n

    def count(self, lines: Sequence[str]) -> int:
        """Tokens of the lines joined by newlines."""
        if not self.additive:
            return self.counter.count("\n".join(lines))
        return sum(self.line(text) for text in lines) + self.join * max(len(lines) - 1, 0)


@dataclass
class Entry:
    """One candidate memory during selection."""

    id: str
    rank: int
    analysis: Analysis
    block: str
    """Memories of one block share a line: ``s:<session>``, else ``i:<id>``."""
    speaker: str | None
    session: str | None
    at: datetime | None
    triples: tuple[Triple, ...]
    prior: float
    dated: bool = True
    """Not timeless: its time says when something was said or happened."""
    hot: frozenset[int] = frozenset()
    """Sentences scored on words, chain and type (the others are filler)."""
    said: bool = True
    """Its relative time words get the date they mean."""
    on_day: frozenset[int] = frozenset()
    """Sentences naming a day the question asks about."""
    static: list[float] = field(default_factory=list)
    """Per sentence: its gain besides the question's words, times the prior."""
    chosen: set[int] = field(default_factory=set)
    order: tuple[int, datetime, int] = (0, datetime.min.replace(tzinfo=UTC), 0)
    """Oldest first, undated last, then by rank."""


def score_entry(
    e: Entry, query: Query, weights: PackingConfig, bridges: frozenset[str] = frozenset()
) -> None:
    """Fill ``e.static`` and ``e.order``; ``bridges``: names met in chosen sentences (chain evidence)."""
    a = e.analysis
    # A memory whose title names a bridge is about the next hop: its first sentence is evidence
    # for the chain though it says "it" ("Thornvale: It is located within Elmshire").
    titled = 0.0
    if a.title is not None:
        titled = 1.0 if bridges and not bridges.isdisjoint(a.title_names) else query.names_chain(a.title_norm)
    base, lead, prior, hot, on_day = weights.base, weights.lead, e.prior, e.hot, e.on_day
    asked = query.stems.keys()
    out: list[float] = []
    for i in range(len(a)):
        g = base + lead * (i == 0)
        bridged = bool(bridges) and not bridges.isdisjoint(a.names_of(i))
        if i in hot or bridged:
            s = a.sentence(i)
            lexical = not asked.isdisjoint(s.words)
            chained = 1.0 if bridged else max(titled if i == 0 else 0.0, query.names_chain(s.norm))
            typed = (lexical or chained > 0) and query.typed(s)
            g += weights.chain * chained + weights.answer_type * typed + weights.day * (i in on_day)
        out.append(prior * g)
    e.static = out
    e.order = (1, datetime.min.replace(tzinfo=UTC), e.rank) if e.at is None else (0, utc(e.at), e.rank)


@dataclass
class Selection:
    """The chosen sentences (``Entry.chosen``) and triples, and how they render."""

    entries: list[Entry]
    by_time: bool
    show_dates: bool
    meter: Meter
    tz: tzinfo
    triples: list[Triple] = field(default_factory=list)
    _lines: dict[tuple[object, ...], str] = field(default_factory=dict)

    def arrange(self) -> list[list[Entry]]:
        """The memories of each line, in render order."""
        blocks: dict[str, list[Entry]] = {}
        for e in self.entries:
            if e.chosen:
                blocks.setdefault(e.block, []).append(e)
        for members in blocks.values():
            members.sort(key=lambda e: e.order)
        if self.by_time:
            return sorted(blocks.values(), key=lambda b: b[0].order)
        return sorted(blocks.values(), key=lambda b: min(e.rank for e in b))

    def render(self) -> list[str]:
        """The lines of the text."""
        blocks = self.arrange()
        lines: list[str] = []
        for n, members in enumerate(blocks, 1):
            label = str(n)
            key = (label, *((e.id, frozenset(e.chosen)) for e in members))
            text = self._lines.get(key)
            if text is None:
                first_at = next(
                    (e.at for e in members if e.at is not None and (e.dated or self.by_time)), None
                )
                shown = local_day(first_at, self.tz) if self.show_dates and first_at is not None else None
                parts = [f"[{label}]"]
                if shown is not None:
                    parts.append(day_text(shown))
                for j, e in enumerate(members):
                    if j and not e.speaker and not e.analysis.title:
                        parts.append("…")  # between memories of one block that name no speaker or title
                    said = local_day(e.at, self.tz) if e.at is not None and e.said else None
                    parts += memory_parts(e.analysis, e.chosen, e.speaker, said, shown)
                text = self._lines[key] = " ".join(parts)
                if self.meter.spaced and text not in self.meter._cache:
                    # a part ending in a label colon ("Title:") gains ": " when joined: +1
                    self.meter._cache[text] = sum(self.meter.line(part) for part in parts) + sum(
                        1 for part in parts[:-1] if part.endswith(":")
                    )
            lines.append(text)
        if self.triples:
            lines.append("Connections: " + "; ".join(triple_text(t) for t in self.triples))
        return lines


def _alike(a: frozenset[str], b: frozenset[str], share: float) -> bool:
    """Whether two sentences' words overlap by at least ``share`` (Jaccard)."""
    both = len(a & b)
    return both >= share * (len(a) + len(b) - both)


def _near_duplicate(s: Sentence, seen: Sequence[Sentence]) -> bool:
    """Whether ``s`` says what one of ``seen`` says: the same words, or most and the same numbers."""
    return any(
        s.norm == o.norm
        or (s.digits == o.digits and s.words and o.words and _alike(s.words, o.words, _NEAR_DUPLICATE))
        for o in seen
    )


def candidates(e: Entry) -> list[tuple[int, ...]]:
    """The sentence groups of one memory that may be chosen: a sentence with the one it leans
    on ("It ..."), a colon's with what it announces."""
    a = e.analysis
    out: list[tuple[int, ...]] = []
    listed = 0  # sentences before this one are in a numbered list taken with its header
    for i in range(len(a)):
        if i < listed:
            continue
        group: tuple[int, ...] = (i,)
        if i > 0:
            first = a.texts[i].split(" ", 1)[0].strip(",.;:!?\"'").lower()
            if first in _LEANING and not (a.title is not None and first in _PRONOUNS):
                group = (i - 1, i)
        if a.texts[i].endswith(":") and i + 1 < len(a):
            items = _list_items(a.texts, i + 1)
            group = (*group, *items)
            if len(items) > 1:
                listed = items[-1] + 1
        out.append(group)
    return out


_NUMBERED = re.compile(r"\d{1,2}[.)] ")
_LIST_ITEM_WORDS = 6
"""A numbered line of at most this many words is a list item (a name, an option)."""
_LIST_ITEMS = 12


def _list_items(texts: Sequence[str], start: int) -> tuple[int, ...]:
    """What a sentence ending in a colon announces: the next sentence, or a whole list of short
    numbered items ("1. Starhollow"): the header with only some items would misstate the list."""
    end = start
    while (
        end < len(texts)
        and end - start < _LIST_ITEMS
        and _NUMBERED.match(texts[end]) is not None
        and len(texts[end].split()) <= _LIST_ITEM_WORDS
    ):
        end += 1
    return tuple(range(start, end)) if end - start >= 2 else (start,)


_LEANING = frozenset(
    """it its he his him she her they their them theirs this that these those there here such
    however but also although though so then thus therefore hence meanwhile moreover furthermore
    additionally besides instead otherwise later afterwards subsequently yes no""".split()  # noqa: SIM905 - a word block reads better
)
"""A sentence opening with one of these points at the sentence before ("It", "However"...)."""


def select(
    entries: list[Entry],
    query: Query,
    weights: PackingConfig,
    budget: int,
    meter: Meter,
    *,
    by_time: bool,
    show_dates: bool,
    asked: frozenset[str],
    tz: tzinfo,
) -> Selection:
    """Choose sentences (and graph triples) for ``budget`` tokens. A name first met in a chosen
    sentence, not in the question (``asked``) and in at most a fifth of the candidates, is a
    bridge: other memories' sentences naming it get the chain gain (not in the chosen chat
    turn's own session, where it is the topic, not a next hop)."""
    state = Selection(entries, by_time, show_dates, meter, tz)
    covered: dict[str, int] = {}
    seen: list[Sentence] = []
    seen_texts: set[str] = set()
    opened: set[str] = set()
    heap: list[tuple[float, int, int, tuple[int, ...], Triple | None]] = []
    tie = itertools.count()
    checked: dict[tuple[int, int], int] = {}  # (entry, sentence) -> seen compared (-1: a duplicate)

    def duplicate(e: Entry, i: int) -> bool:
        key = (e.rank, i)
        start = checked.get(key, 0)
        if start < 0:
            return True
        if start < len(seen) and _near_duplicate(e.analysis.sentence(i), seen[start:]):
            checked[key] = -1
            return True
        checked[key] = len(seen)
        return False

    numbered: list[Sentence] = []  # chosen sentences holding a number (a later one may update)
    updated: dict[tuple[int, int], tuple[int, bool]] = {}  # (entry, sentence) -> (compared, updates)

    def update(e: Entry, i: int, s: Sentence) -> bool:
        """Whether ``s`` restates a chosen sentence with other numbers (its words count whole)."""
        key = (e.rank, i)
        start, found = updated.get(key, (0, False))
        if not found:
            found = any(
                o.digits.isdisjoint(s.digits) and _alike(s.words, o.words, _UPDATE) for o in numbered[start:]
            )
            updated[key] = (len(numbered), found)
        return found

    def gain(e: Entry, group: Sequence[int]) -> float:
        total = 0.0
        for i in group:
            if i in e.chosen:
                continue
            if i in e.hot:
                s = e.analysis.sentence(i)
                if duplicate(e, i):
                    continue
                repeat = 1.0 if numbered and s.digits and update(e, i, s) else weights.repeat
                total += e.static[i] + e.prior * weights.lexical * query.lexical(s.words, covered, repeat)
            elif e.analysis.texts[i] not in seen_texts:
                total += e.static[i]
        return total

    sizes = [[len(t) / _CHARS_PER_TOKEN + 1 for t in e.analysis.texts] for e in entries]
    heads = [
        (len(e.analysis.title) / _CHARS_PER_TOKEN + 1 if e.analysis.title else 0) + (2 if e.speaker else 0)
        for e in entries
    ]  # fmt: skip
    line_head = [3 + (4 if show_dates and e.at is not None and (e.dated or by_time) else 0) for e in entries]
    power = weights.cost_power

    def estimate(idx: int, group: Sequence[int]) -> float:
        e = entries[idx]
        size = sizes[idx]
        if e.chosen:
            cost = sum(size[i] for i in group if i not in e.chosen)
        else:
            cost = sum(size[i] for i in group) + heads[idx] + (line_head[idx] if e.block not in opened else 0)
        return float(max(cost, 1.0) ** power)

    def triple_gain(e: Entry, t: Triple) -> float:
        tokens = tokenize(" ".join(t))
        chained = query.names_chain(" ".join(tokens))
        words = {stem(tok) for tok in tokens}
        return e.prior * (
            weights.chain * chained + weights.lexical * query.lexical(words, covered, weights.repeat)
        )

    def push(idx: int, group: tuple[int, ...], triple: Triple | None, ratio: float) -> None:
        heapq.heappush(heap, (-ratio, next(tie), idx, group, triple))

    groups = [candidates(e) for e in entries]
    names = [e.analysis.names for e in entries]
    name_df = Counter(n for found in names for n in found)
    rare = max(2, len(entries) // 5)
    bridges: set[str] = set()
    for idx, group_list in enumerate(groups):
        for group in group_list:
            push(idx, group, None, gain(entries[idx], group) / estimate(idx, group))

    current = meter.count(state.render())

    def fits() -> bool:
        """Whether the rendered text fits (its count is then the current one)."""
        nonlocal current
        used = meter.count(state.render())
        if used > budget:
            return False
        current = used
        return True

    def accept(idx: int, new: list[int]) -> None:
        """Add sentences ``new`` of entry ``idx`` if the text still fits; book what they cover."""
        e = entries[idx]
        was_open = bool(e.chosen)
        e.chosen.update(new)
        if not fits():
            e.chosen.difference_update(new)
            return
        opened.add(e.block)
        for i in new:
            seen_texts.add(e.analysis.texts[i])
            if i in e.hot:
                s = e.analysis.sentence(i)
                seen.append(s)
                if s.digits:
                    numbered.append(s)
                for w in s.words & query.stems.keys():
                    covered[w] = covered.get(w, 0) + 1
        fresh = {
            n
            for i in new
            for n in e.analysis.names_of(i)
            if n not in asked and n not in bridges and 2 <= name_df[n] <= rare
        }
        if fresh:
            bridges.update(fresh)
            known = frozenset(bridges)
            for j, near in enumerate(entries):
                if j == idx or names[j].isdisjoint(fresh):
                    continue
                if e.speaker is not None and near.speaker is not None and near.session == e.session:
                    continue  # a name again in the same conversation is its topic, not a next hop
                score_entry(near, query, weights, known)
                for g2 in groups[j]:  # re-rank what the bridge made worth more
                    if not set(g2) <= near.chosen and any(
                        not near.analysis.names_of(i).isdisjoint(fresh) for i in g2
                    ):
                        push(j, g2, None, gain(near, g2) / estimate(j, g2))
        if not was_open:
            for t in e.triples:
                push(idx, (), t, triple_gain(e, t) / (meter.line(triple_text(t)) + 2))
            for other in groups[idx]:  # no longer paying for the label and title: re-rank
                if not set(other) <= e.chosen:
                    push(idx, other, None, gain(e, other) / estimate(idx, other))

    while heap and current < budget:
        neg, _, idx, group, triple = heapq.heappop(heap)
        e = entries[idx]
        if triple is not None:
            if triple in state.triples:
                continue
            g = triple_gain(e, triple)
            ratio = g / (meter.line(triple_text(triple)) + (2 if state.triples else 4))
            if g <= 0:
                continue
            if heap and ratio < -heap[0][0] < -neg:
                push(idx, (), triple, ratio)
                continue
            state.triples.append(triple)
            if not fits():
                state.triples.pop()
            continue
        new = [i for i in group if i not in e.chosen]
        if not new:
            continue
        if meter.spaced:  # a sentence adds at least its own count: if it cannot fit, now or later
            alone = sum(meter.line(e.analysis.texts[i]) for i in new)
            if current + alone > budget:
                continue
        g = gain(e, new)
        if g <= 0:
            continue
        ratio = g / estimate(idx, new)
        if heap and ratio < -heap[0][0] < -neg:
            push(idx, group, None, ratio)  # re-scored below the next candidate: that one first
            continue
        if meter.spaced and current + alone + (0 if e.block in opened else 3) > budget:
            continue  # a lower bound of what it adds: its sentences, and a new line's label
        if any(i in e.hot and duplicate(e, i) for i in new):
            continue  # says what a chosen sentence says (checked here, not at every re-score)
        accept(idx, new)
    return state
