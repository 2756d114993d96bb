"""The router: query text + the tenant's known entities → a frozen ``Plan`` (no I/O): the route,
the time, order, role and relations the question asks about."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..config import RouterConfig
from ..extraction.known import KnownEntities
from .relations import find_relations
from .when import Order, TimeRef, find_order, find_time
from .who import Role, answer_role

Route = Literal["vector", "hybrid"]

RELATIONAL_CUES: tuple[str, ...] = (
    "who", "whom", "whose", "manage", "manages", "managed", "manager", "report to", "reports to",
    "reported to", "lead", "leads", "led", "leader", "head of", "approved", "approve", "decided",
    "decision", "changed", "change", "since", "between", "why", "connected", "connection",
    "related", "relationship", "responsible", "owner", "owns", "works with", "works for",
    "works on", "member of", "part of", "built", "boss", "supervisor", "team that", "person who",
    "the one who", "linked", "depends on", "latest", "updated", "same trip", "belongs to",
)  # fmt: skip
"""Words and phrases that ask about connections rather than a single stored fact."""

MAX_DEPTH = 2
"""The deepest relational walk a plan asks for (the design's bound)."""

_CUE_RE = re.compile(
    r"\b(" + "|".join(re.escape(c) for c in sorted(RELATIONAL_CUES, key=len, reverse=True)) + r")\b"
)


class Plan(BaseModel):
    """What the router decided for one query, and why."""

    model_config = ConfigDict(frozen=True)

    route: Route
    entities: tuple[tuple[str, str], ...]
    """(key, name) of every known entity the query names, in order of appearance."""
    cues: tuple[str, ...]
    """The relational cues found in the query."""
    rule: str
    """The rule that fired, in words."""
    forced: bool = False
    """True when the caller chose the route (``route="vector"|"hybrid"``)."""
    max_hops: int = 2
    followable: tuple[str, ...] = ()
    """Keys of the named entities the graph walk can follow (not hubs); the entity rule counts these."""
    time: TimeRef | None = None
    order: Order | None = None
    role: Role | None = None
    """Whose turns hold the answer: ``user`` or ``assistant``."""
    relation_words: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()
    """The relation labels they ask for, with inverses and near synonyms (the edges walked)."""
    depth: int = 0
    """Relation steps the walk takes: those the relational words span, up to 2 (0 on a vector route)."""
    links: bool = False
    """Whether the links channel ran (set by the search)."""


def find_cues(text: str) -> tuple[str, ...]:
    """The relational cues in ``text`` (case-insensitive, whole words), deduplicated in order."""
    return tuple(dict.fromkeys(m.group(1) for m in _CUE_RE.finditer(text.lower())))


def plan_query(
    text: str,
    known: KnownEntities,
    config: RouterConfig,
    *,
    force: Route | None = None,
    now: datetime | None = None,
    mentions: Mapping[str, int] | None = None,
    max_mentions: int | None = None,
) -> Plan:
    """Route one query. With ``mentions`` (key → how many memories name it) and ``max_mentions``
    (the hub guard), only entities the graph can follow count for the entity rule (a chat's
    speaker is named by hundreds of turns and leads nowhere). ``now``: when it is asked."""
    matches = known.find(text, fold=True)  # people type names without their accents
    entities = tuple(dict.fromkeys((m.key, m.name) for m in matches))
    followable = tuple(
        key
        for key, _ in entities
        if mentions is None or max_mentions is None or mentions.get(key, 0) <= max_mentions
    )
    cues = find_cues(text)
    time, order, role = find_time(text, now), find_order(text), answer_role(text)
    asked = find_relations(text)
    n, t = len(followable), config.entity_threshold
    named = "no followable entity named" if entities else "no known entity named"
    if force is not None:
        hybrid, rule = force == "hybrid", f"forced: route={force}"
    elif config.require_cue:
        hybrid = n >= t and bool(cues)
        rule = f"entities {n} {'>=' if n >= t else '<'} {t} and {'a' if cues else 'no'} relational cue (cue required)"
    elif n >= t:
        hybrid, rule = True, f"entities {n} >= {t}"
    elif n >= 1 and cues:
        hybrid, rule = True, f"entities {n} >= 1 with relational cue {cues[0]!r}"
    elif n == 0 and (cues or asked.words):
        # A relational question that names nothing the graph can follow still goes to the graph:
        # its channel starts from the entities the first vector hits name ("Who was in charge of
        # the country where the composer of Glasbrücke was a citizen?" names no stored entity).
        what = f"relational cue {cues[0]!r}" if cues else f"relational word {asked.words[0]!r}"
        hybrid, rule = True, f"{named}, {what}: the graph starts from the vector hits"
    else:  # (one named entity or more with a cue went hybrid above)
        hybrid, rule = False, named if n == 0 else f"entities {n} < {t} and no relational cue"
    return Plan(
        route="hybrid" if hybrid else "vector",
        entities=entities,
        cues=cues,
        rule=rule,
        forced=force is not None,
        max_hops=config.max_hops,
        followable=followable,
        time=time,
        order=order,
        role=role,
        relation_words=asked.words,
        relations=asked.relations,
        depth=min(asked.steps, MAX_DEPTH) if hybrid else 0,  # a walk only on the graph's route
    )
