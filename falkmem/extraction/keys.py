"""The mapping of free-text predicates onto the relation vocabulary (entity keys: ``text/keys.py``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import cast

from .lexicon import words
from .vocab import PASSIVES, PREDICATES, RELATIONS, Relation

__all__ = ["lookup_relation", "normalize_relation"]

_FILLERS = words(
    "the a an also currently now still formerly previously recently directly just already "
    "actually officially really who which that"
)
_AUX = re.compile(
    r"^(?:(?:is|are|was|were|am|be|been|being|has|have|had|will|would|shall|should|can|"
    r"could|may|might|must|does|do|did|gets|got|get|became|become|becomes)\s+)+"
)
_ACTIVE_RE: list[tuple[re.Pattern[str], Relation]] = [(re.compile(p), r) for p, r in PREDICATES]

_PASSIVE_RE: list[tuple[re.Pattern[str], Relation, bool]] = [(re.compile(p), r, s) for p, r, s in PASSIVES]
_PASSIVE_FORM = re.compile(
    r"^(?P<aux>(?:(?:is|are|was|were|be|been|being|has|have|had|will|"
    r"get|gets|got)\s+)*)(?P<core>.+?)\s+by$"
)
_WORDS = re.compile(r"[a-z]+")


@lru_cache(maxsize=2048)
def lookup_relation(predicate: str) -> tuple[Relation, bool] | None:
    """``(relation, swap)`` of a free-text predicate ("works at", "was born in"), or None.

    Lower-cased, punctuation, articles and a few adverbs ("also") dropped, auxiliaries ("has
    been") stripped, the rest must match a known phrase whole (a long clause does not match by
    accident). ``swap``: subject and object are exchanged, for a passive (``"was built by"``).
    """
    words = [w for w in _WORDS.findall(predicate.casefold()) if w not in _FILLERS]
    if not words:
        return None
    phrase = " ".join(words)
    passive = _PASSIVE_FORM.match(phrase)
    if passive is not None and passive.group("core"):
        core = passive.group("core")
        for pattern, relation, swap in _PASSIVE_RE:
            if pattern.fullmatch(core):
                return relation, swap
        if not passive.group("aux"):
            return None
    stripped = _AUX.sub("", phrase) or phrase
    for candidate in (stripped, phrase):
        for pattern, relation in _ACTIVE_RE:
            if pattern.fullmatch(candidate):
                return relation, False
    return None


def normalize_relation(predicate: str) -> tuple[Relation, bool]:
    """``lookup_relation`` of a predicate that may also be a vocabulary name (``"reports_to"``);
    ``("related_to", False)`` when it is not recognised."""
    exact = "_".join(predicate.casefold().split())
    if exact in RELATIONS:
        return cast(Relation, exact), False
    found = lookup_relation(predicate.replace("_", " "))
    return found if found is not None else ("related_to", False)
