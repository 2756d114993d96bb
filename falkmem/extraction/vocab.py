"""The fixed entity type and relation vocabularies (a leaf module: imports nothing of falkmem)."""

from __future__ import annotations

from typing import Literal, get_args

EntityType = Literal[
    "person",
    "organization",
    "team",
    "project",
    "place",
    "product",
    "event",
    "role",
    "identifier",
    "date",
    "amount",
    "email",
    "concept",
    "other",
]
"""The fixed entity type vocabulary. ``"other"`` means "not known": a store should keep a more
specific type it already has rather than overwrite it with ``"other"``."""

Relation = Literal[
    "leads",
    "manages",
    "reports_to",
    "member_of",
    "built",
    "works_on",
    "holds_role",
    "based_in",
    "owns",
    "part_of",
    "located_in",
    "created",
    "uses",
    "related_to",
]
"""The fixed relation vocabulary (direction: the subject acts).

- ``leads``/``manages``: person → team/project/person; ``reports_to``: person → person.
- ``member_of``: person/team → team/organization (also "works at", "joined", "employed by").
- ``built``: who built/developed → the thing; ``created``: founded/wrote/invented.
- ``works_on``: person/team → project; ``holds_role``: person → role entity ("VP of Engineering").
- ``based_in``: person/team/org → place (also "lives in", "born in");
  ``located_in``: place/thing → place.
- ``owns``, ``part_of``, ``uses``: as named. ``related_to``: anything else and co-mention.
"""

ENTITY_TYPES: frozenset[str] = frozenset(get_args(EntityType))
RELATIONS: frozenset[str] = frozenset(get_args(Relation))
