"""The adjustments: what a question leans on besides its words (who, when, latest or earliest,
memories that only ask). Each adds to or takes from a fused score (a cosine: ~0.1 is a clear
step); none removes a memory. Measurements: docs/decisions/0003-conversation-leanings.md."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache, wraps
from typing import Any, Literal

from ..config import LeanConfig
from ..errors import InputError
from ..routing.who import in_first_person
from ..text.keys import canonical_key, key_tokens
from ..text.sentences import split_sentences
from .fusion import Fused, sort_key

__all__ = [
    "DAY", "QuestionLeanings", "asks_only", "lean", "name_tokens", "said_form", "speaker_keys",
    "speaks_of_self",
]  # fmt: skip

DAY = 86_400.0
_SPEAKER_PREFIX = re.compile(r"^\s*[\w .'-]{1,40}:\s+")
_INTERJECTION_WORDS = 4
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
_FUZZY_MIN = 5
_FUZZY_RATIO = 0.85
_MEMO_CHARS = 1000


@dataclass(frozen=True, slots=True)
class QuestionLeanings:
    """What a question leans on, read by the router: the keys of the people it names, its canonical
    tokens (:func:`said_form`) and those of its capitalised words (:func:`name_tokens`), whose
    turns hold the answer, the epoch-second window of the time it names (and whether it is
    written out), ``latest`` or ``earliest``."""

    speakers: frozenset[str] = frozenset()
    said: str = ""
    names: tuple[str, ...] = ()
    role: str | None = None
    window: tuple[float, float] | None = None
    explicit: bool = False
    order: Literal["latest", "earliest"] | None = None


def asks_only(text: str) -> bool:
    """Whether a memory only asks: it ends with a question, every sentence a question or a short
    interjection ("Hey Zarek! How was the match?"; not "I adopted a cat. Do you have pets?")."""
    if not text.rstrip().endswith("?"):
        return False
    return _asks(text)


def _short_memo(fn: Callable[[str], bool]) -> Callable[[str], bool]:
    """``fn`` memoised for texts of at most ``_MEMO_CHARS`` characters (chats repeat short turns)."""
    cached = lru_cache(maxsize=8192)(fn)

    @wraps(fn)
    def call(text: str) -> bool:
        return cached(text) if len(text) <= _MEMO_CHARS else fn(text)

    return call


@_short_memo
def _asks(text: str) -> bool:
    body = _SPEAKER_PREFIX.sub("", text, count=1).strip()
    sentences = [s.strip() for s in split_sentences(body, clauses=True)]
    return bool(sentences) and all(
        s.endswith("?") or len(s.split()) <= _INTERJECTION_WORDS for s in sentences
    )


@_short_memo
def speaks_of_self(text: str) -> bool:
    """Whether a turn says something of its speaker (a first-person word after ``Name:``)."""
    return in_first_person(_SPEAKER_PREFIX.sub("", text, count=1))


def _names_speaker(question: QuestionLeanings, keys: tuple[str, ...], roles: Mapping[str, str]) -> bool:
    """Whether the question names the speaker whose keys these are (roles are left to the role
    leaning)."""
    if question.speakers and any(k in question.speakers for k in keys):
        return True
    if keys[0] in roles:
        return False
    if question.said and any(f" {k} " in question.said for k in keys):
        return True
    return any(_spelled_alike(n, k) for n in question.names for k in keys if " " not in k)


def _spelled_alike(a: str, b: str) -> bool:
    """Two names of five letters or more, same first letter, and the same consonants in order
    ("Yusra", "Yousra"; "Halvard", "Halvord") or a similarity ratio of 0.85 ("Zarek", "Zareck")."""
    if len(a) < _FUZZY_MIN or len(b) < _FUZZY_MIN or a[0] != b[0] or a == b:
        return a == b
    return _skeleton(a) == _skeleton(b) or SequenceMatcher(None, a, b).ratio() >= _FUZZY_RATIO


def _skeleton(name: str) -> str:
    rest = [c for c in name[1:] if c not in "aeiouy"]
    return name[0] + "".join(c for i, c in enumerate(rest) if i == 0 or c != rest[i - 1])


def said_form(text: str) -> str:
    """A question's canonical tokens, a space around each (``" do halvard and zarek sail "``)."""
    tokens = key_tokens(text)
    return f" {' '.join(tokens)} " if tokens else ""


def name_tokens(text: str) -> tuple[str, ...]:
    """The canonical tokens of a question's capitalised words (``("how", "halvord")``)."""
    return tuple(dict.fromkeys(t for w in _CAPITALISED.findall(text) for t in key_tokens(w)))


@lru_cache(maxsize=4096)
def speaker_keys(speaker: Any) -> tuple[str, ...]:
    """The keys a question may name a speaker by: the whole name and its first word
    (``"Halvard Brannock"`` → ``("halvard brannock", "halvard")``)."""
    if not isinstance(speaker, str) or not speaker.strip():
        return ()
    try:
        full = canonical_key(speaker)
    except InputError:
        return ()
    first = full.split()[0]
    return (full, first) if first != full and len(first) >= 3 else (full,)


def lean(
    fused: Sequence[Fused],
    rows: Mapping[str, Mapping[str, Any]],
    question: QuestionLeanings,
    weights: LeanConfig,
    *,
    roles: Mapping[str, str] | None = None,
    trace: dict[str, dict[str, float]] | None = None,
) -> list[Fused]:
    """``fused`` with each candidate's leanings added to its score, re-sorted as in fusion.
    ``rows``: the candidates' rows (asks and impersonal read whole rows only, or an ``asks``
    flag); ``roles``: speaker (case-folded) → role; ``trace`` gets ``{id: {"speaker": 0.2}}``."""
    adds: dict[str, float] = {f.id: 0.0 for f in fused}
    named: dict[tuple[str, ...], bool] = {}  # per speaker: a chat has few, a search many candidates

    def give(i: str, leaning: str, x: float) -> None:
        adds[i] += x
        if trace is not None and x:
            trace.setdefault(i, {})[leaning] = x

    for f in fused:
        row = rows.get(f.id) or {}
        keys = speaker_keys(row.get("speaker"))
        if weights.speaker and keys:
            hit = named.get(keys)
            if hit is None:
                hit = named[keys] = _names_speaker(question, keys, roles or {})
            if hit:
                give(f.id, "speaker", weights.speaker)
        if weights.role and question.role and keys and (roles or {}).get(keys[0]) == question.role:
            give(f.id, "role", weights.role)
        text = row.get("text")
        text = text if isinstance(text, str) else None  # whole rows only
        if weights.asks and (row["asks"] if "asks" in row else text is not None and asks_only(text)):
            give(f.id, "asks", -weights.asks)
        # A user's or an assistant's turn states facts without "I"; facts and notes are no turns.
        if (
            weights.impersonal
            and keys
            and text is not None
            and keys[0] not in (roles or {})
            and row.get("kind", "episode") == "episode"
            and not speaks_of_self(text)
        ):
            give(f.id, "impersonal", -weights.impersonal)
        at = row.get("valid_at")
        if question.window is not None and isinstance(at, int | float):
            start, end = question.window
            if start <= at < end:
                give(f.id, "time", weights.time_explicit if question.explicit else weights.time)
    if weights.order and question.order is not None:
        head = sorted(fused, key=lambda f: -(f.score + adds[f.id]))[: weights.order_top]
        times = {
            f.id: float(t)
            for f in head
            if isinstance(t := (rows.get(f.id) or {}).get("valid_at"), int | float)
        }
        # Memories written in one sitting, without times of their own, are in no order.
        if len(times) > 1 and (span := max(times.values()) - min(times.values())) >= DAY:
            low = min(times.values())
            for i, t in times.items():
                x = (t - low) / span
                give(i, "order", weights.order * (x if question.order == "latest" else 1.0 - x))
    out = [
        Fused(f.id, f.score + adds[f.id], f.ranks, f.scores, f.rerank_score) if adds[f.id] else f
        for f in fused
    ]
    return sorted(out, key=sort_key)
