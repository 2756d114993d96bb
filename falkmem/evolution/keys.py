"""Fact keys: normalising explicit keys, deriving keys from single-valued relations, fact hashes."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..extraction.types import Extraction

__all__ = ["KeyPolicy", "derive_key", "fact_hash", "normalise_key", "normalise_text", "rounds"]

_WS = re.compile(r"\s+")
_TRAIL = " .!?;,"


@dataclass(frozen=True, slots=True)
class KeyPolicy:
    """When a key is derived from an extracted relation.

    Attributes:
        relations: the single-valued relations (a subject has one current object).
        kinds: the memory kinds eligible for a derived key (a dialog turn says more than one
            fact, so superseding it as a whole would hide the rest; facts are short).
    """

    relations: frozenset[str]
    kinds: frozenset[str]


def normalise_text(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed, trailing punctuation dropped."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip().rstrip(_TRAIL)


def normalise_key(key: str) -> str:
    """The stored form of a caller's key: NFKC, case-folded, whitespace collapsed.

    Raises:
        InputError: the key is blank once normalised.
    """
    k = _WS.sub(" ", unicodedata.normalize("NFKC", key).casefold()).strip()
    if not k:
        raise InputError("key", "must contain a non-space character")
    return k


def fact_hash(value: str) -> str:
    """A short, irreversible identity of a fact's value (never stores the text itself)."""
    return hashlib.sha256(normalise_text(value).encode()).hexdigest()[:32]


def derive_key(extraction: Extraction, kind: str, policy: KeyPolicy) -> tuple[str, str] | None:
    """``(key, value)`` for a memory that states exactly one single-valued relation.

    The key is ``relation:subject`` (``reports_to:priya chandran``) and the value identity
    ``relation:subject:object``: two wordings of the same fact are one fact, a new object
    for the same subject and relation supersedes the old one. More than one such relation
    in one memory (or an ineligible kind) derives nothing: a wrong supersession would retire
    a true fact, which is worse than keeping a stale one.

    Args:
        extraction: the memory's entities and triples.
        kind: the memory kind.
        policy: which relations and kinds qualify.

    Returns:
        The derived key and the value to hash, or None.
    """
    if kind not in policy.kinds:
        return None
    found = {(t.relation, t.subject, t.object) for t in extraction.triples if t.relation in policy.relations}
    if len(found) != 1:
        return None
    relation, subject, obj = found.pop()
    return f"{relation}:{subject}", f"{relation}:{subject}:{obj}"


def rounds(rows: Sequence[dict[str, Any]], field: str = "key") -> list[list[dict[str, Any]]]:
    """Split rows so that no round holds two rows with the same non-null ``field``.

    One write query sees the graph as it was before the query, so two versions of one key
    must go in separate queries; order within a key is kept (history is ordered by
    ``valid_at`` anyway).
    """
    out: list[list[dict[str, Any]]] = []
    seen: dict[object, int] = {}
    for row in rows:
        k = row.get(field)
        i = 0 if k is None else seen.get(k, -1) + 1
        if k is not None:
            seen[k] = i
        while len(out) <= i:
            out.append([])
        out[i].append(row)
    return out
