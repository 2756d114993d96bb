"""Context packing: fit ranked memories and graph evidence into a token budget, with provenance."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ..errors import InputError
from ..keyword.tokens import query_terms
from .tokens import TokenCounter

__all__ = ["ContextItem", "PackedContext", "pack", "refers_back"]

Triple = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One retrieved memory offered to the packer.

    Attributes:
        id: the artifact id (rendered as provenance).
        text: the memory's text.
        score: its final relevance score, higher is better.
        session: the session it came from, if any.
        at: when it became valid (or was created); naive datetimes are taken as UTC.
        kind: the artifact kind (``"episode"``, ``"fact"``...).
        triples: graph evidence as ``(subject name, relation, object name)``.
        superseded: a newer fact replaced it; packed only when the query asks for history.
    """

    id: str
    text: str
    score: float
    session: str | None = None
    at: datetime | None = None
    kind: str = "memory"
    triples: tuple[Triple, ...] = ()
    superseded: bool = False


@dataclass(frozen=True, slots=True)
class PackedContext:
    """The packed context and what went into it.

    Attributes:
        text: the context to put in the prompt ("" when nothing fits).
        tokens: ``counter.count(text)``; never more than the budget.
        used: ids of the rendered items, in rendered order.
        dropped: ids of the offered items that were not rendered (duplicates, superseded,
            or out of budget), best first.
        triples_rendered: how many graph triples made it under ``Connections:``.
        partial: ids among ``used`` rendered as only their query-matching sentences.
        chronological: whether items were ordered by time (else by score).
    """

    text: str
    tokens: int
    used: tuple[str, ...]
    dropped: tuple[str, ...]
    triples_rendered: int
    partial: tuple[str, ...] = ()
    chronological: bool = False


_REFERS_BACK = re.compile(
    r"\b(?:earlier|before|previous(?:ly)?|prior|last\s+time|latest|most\s+recent(?:ly)?|"
    r"recently|history|historical|timeline|over\s+time|when\s+did|used\s+to|originally|"
    r"at\s+first|first\s+time|ago|since|anymore|any\s+more|no\s+longer|still|"
    r"chang(?:e|ed|es|ing)|updat(?:e|ed|es|ing)|evolv(?:e|ed|es|ing)|"
    r"revis(?:e|ed|ion|ions)|switch(?:ed)?|moved)\b",
    re.IGNORECASE,
)
_WS = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")
_ELLIPSIS = " … "
_CONNECTIONS = "Connections:"


def refers_back(query: str) -> bool:
    """Whether the query refers back in time ("earlier", "last time", "what changed"...).

    Such questions are about a sequence of events, so the packer orders their memories by
    time; the same cues mean the caller asks for history, so superseded facts are kept.

    Args:
        query: the user's query.

    Returns:
        True when a temporal back-reference cue occurs in the query.

    Example:
        >>> refers_back("What did we decide last time about the budget?")
        True
        >>> refers_back("Who leads Project Helios?")
        False
    """
    return _REFERS_BACK.search(unicodedata.normalize("NFKC", query)) is not None


def _one_line(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _dedupe_key(text: str) -> str:
    return _one_line(unicodedata.normalize("NFKC", text).casefold()).rstrip(" .!?;,")


def _stamp(at: datetime) -> str:
    if at.tzinfo is not None:
        at = at.astimezone(UTC)
    return at.strftime("%Y-%m-%d %H:%M")


def _time_key(item: ContextItem) -> tuple[int, datetime, float, str]:
    """Oldest first; undated items after the dated ones; then score, then id."""
    if item.at is None:
        return (1, datetime.min.replace(tzinfo=UTC), -item.score, item.id)
    at = item.at if item.at.tzinfo is not None else item.at.replace(tzinfo=UTC)
    return (0, at, -item.score, item.id)


def _render(item: ContextItem, body: str) -> str:
    """``- <text> [<id> · <session> · <YYYY-MM-DD HH:MM>]`` with missing parts left out."""
    parts = [_one_line(item.id)]
    if item.session:
        parts.append(_one_line(item.session))
    if item.at is not None:
        parts.append(_stamp(item.at))
    return f"- {body} [{' · '.join(p for p in parts if p)}]"


def _shares_term(tokens: Sequence[str], terms: Sequence[str]) -> bool:
    # Equal terms, or one a prefix of the other when the shorter has 4+ characters: a cheap
    # stand-in for stemming ("deploy" ~ "deployment", "migrat" ~ "migration").
    for token in tokens:
        for term in terms:
            if token == term:
                return True
            short, long_ = (token, term) if len(token) <= len(term) else (term, token)
            if len(short) >= 4 and long_.startswith(short):
                return True
    return False


def _matching_sentences(text: str, terms: Sequence[str]) -> str:
    """The sentences of ``text`` that share a query term, joined by an ellipsis ("" if none)."""
    if not terms:
        return ""
    sentences = [_one_line(s) for s in _SENTENCE_END.split(text)]
    kept = [s for s in sentences if s and _shares_term(query_terms(s), terms)]
    return _ELLIPSIS.join(kept)


def _format_triple(triple: Triple) -> str:
    subject, relation, obj = (_one_line(part) for part in triple)
    return f"{subject} -{relation}-> {obj}"


def pack(
    query: str,
    items: Sequence[ContextItem],
    *,
    budget_tokens: int,
    counter: TokenCounter,
    chronological: bool | None = None,
    history: bool | None = None,
) -> PackedContext:
    """Pack the best items into at most ``budget_tokens`` tokens, as counted by ``counter``.

    Steps: drop superseded items unless the query refers back (:func:`refers_back`); dedupe
    items whose normalised text is equal (the higher score wins); then, best score first, add
    each item whole if the context still fits, else only its sentences that share a query
    term, else skip it and go on with the next (a long memory does not crowd out the shorter
    ones ranked below it). Items render as
    ``- <text> [<id> · <session> · <YYYY-MM-DD HH:MM>]`` (aware times in UTC). Graph
    evidence of the rendered items follows under a ``Connections:`` line, one deduplicated
    ``subject -relation-> object`` per line, as many as fit.

    Every fit check counts the whole candidate text with ``counter``, so the budget holds
    for any tokenizer, not only additive ones. A counter with ``additive = True`` (such as
    :class:`~falkmem.context.RegexTokenCounter`) promises that ``count(a + "\\n" + b) ==
    count(a) + count(b)``; its line counts are then cached and summed (linear time), and the
    final text is still counted whole.

    Args:
        query: the user's query (drives sentence selection and time ordering).
        items: the ranked candidates, in any order.
        budget_tokens: the most tokens the returned text may have (>= 1).
        counter: the token counter of the consuming model.
        chronological: order rendered items oldest first (True), by score (False), or
            automatically: by time when the query refers back (None).
        history: keep superseded items (True), drop them (False), or keep them only when the
            query refers back (None).

    Returns:
        The packed context.

    Raises:
        InputError: ``budget_tokens`` is 0 or negative.

    Example:
        >>> from falkmem.context import RegexTokenCounter
        >>> p = pack("who leads helios?", [ContextItem("m1", "Ana leads Helios.", 1.0)],
        ...          budget_tokens=50, counter=RegexTokenCounter())
        >>> p.text
        '- Ana leads Helios. [m1]'
    """
    if budget_tokens <= 0:
        raise InputError("budget_tokens", "must be at least 1")
    back = refers_back(query)
    by_time = back if chronological is None else chronological
    keep_old = back if history is None else history
    terms = query_terms(query)

    ranked = sorted(items, key=lambda it: (-it.score, it.id))
    dropped: list[str] = []
    unique: list[ContextItem] = []
    seen_ids: set[str] = set()
    seen_texts: set[str] = set()
    for item in ranked:
        key = _dedupe_key(item.text)
        if (item.superseded and not keep_old) or not key or item.id in seen_ids or key in seen_texts:
            dropped.append(item.id)
            continue
        seen_ids.add(item.id)
        seen_texts.add(key)
        unique.append(item)

    additive = bool(getattr(counter, "additive", False))
    ordered, partial, skipped, triple_lines = _select(
        unique, terms, by_time, budget_tokens, _Meter(counter, additive=additive)
    )
    text = _join(ordered, triple_lines)
    tokens = counter.count(text)
    if tokens > budget_tokens:  # only when a counter wrongly claims to be additive
        ordered, partial, skipped, triple_lines = _select(
            unique, terms, by_time, budget_tokens, _Meter(counter, additive=False)
        )
        text = _join(ordered, triple_lines)
        tokens = counter.count(text)
    dropped.extend(skipped)
    used = tuple(item.id for item, _ in ordered)
    used_set = set(used)
    return PackedContext(
        text=text,
        tokens=tokens,
        used=used,
        dropped=tuple(dict.fromkeys(d for d in dropped if d not in used_set)),
        triples_rendered=len(triple_lines),
        partial=tuple(partial),
        chronological=by_time,
    )


class _Meter:
    """Counts newline-joined lines: exactly, or by summing cached line counts (additive)."""

    def __init__(self, counter: TokenCounter, *, additive: bool) -> None:
        self.counter = counter
        self.additive = additive
        self._cache: dict[str, int] = {}

    def count(self, lines: Sequence[str]) -> int:
        if not self.additive:
            return self.counter.count("\n".join(lines))
        total = 0
        for line in lines:
            n = self._cache.get(line)
            if n is None:
                n = self._cache[line] = self.counter.count(line)
            total += n
        return total


Kept = list[tuple[ContextItem, str]]


def _join(ordered: Kept, triple_lines: Sequence[str]) -> str:
    lines = [line for _, line in ordered]
    if triple_lines:
        lines += [_CONNECTIONS, *triple_lines]
    return "\n".join(lines)


def _select(
    unique: Sequence[ContextItem],
    terms: Sequence[str],
    by_time: bool,
    budget: int,
    meter: _Meter,
) -> tuple[Kept, list[str], list[str], list[str]]:
    """Choose the item lines and triple lines that fit; see :func:`pack` for the rules.

    Returns:
        (kept items with their lines in final order, ids kept partially, ids skipped because
        they did not fit, triple lines).
    """

    def arrange(chosen: Kept) -> Kept:
        return sorted(chosen, key=lambda c: _time_key(c[0])) if by_time else chosen

    def fits(chosen: Kept) -> bool:
        return meter.count([line for _, line in arrange(chosen)]) <= budget

    kept: Kept = []
    partial: list[str] = []
    skipped: list[str] = []
    for item in unique:
        full = _render(item, _one_line(item.text))
        if fits([*kept, (item, full)]):
            kept.append((item, full))
            continue
        body = _matching_sentences(item.text, terms)
        if body and body != _one_line(item.text):
            short = _render(item, body)
            if fits([*kept, (item, short)]):
                kept.append((item, short))
                partial.append(item.id)
                continue
        skipped.append(item.id)

    ordered = arrange(kept)
    body_lines = [line for _, line in ordered]
    triple_lines: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for item, _ in ordered:
        for triple in item.triples:
            key = (_dedupe_key(triple[0]), _dedupe_key(triple[1]), _dedupe_key(triple[2]))
            if key in seen or not all(key):
                continue
            seen.add(key)
            line = _format_triple(triple)
            if meter.count([*body_lines, _CONNECTIONS, *triple_lines, line]) <= budget:
                triple_lines.append(line)
    return ordered, partial, skipped, triple_lines
