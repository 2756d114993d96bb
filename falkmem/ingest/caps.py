"""The one place that bounds every string reaching a unique constraint or an index.

FalkorDB 4.22.1 (falkordblite 0.11.0) segfaults in ``EnforceUniqueEntity`` when a string of
more than 4,096 UTF-8 bytes is written under a unique constraint (``Artifact.id``,
``Entity.key``), which takes the server down for every tenant (docs/limits.md, measured by
``tests/reliability/test_key_limit.py``). Whatever produced a row (the rule extractor, an
LLM extractor, a caller's ``entities=``/``triples=``/``key=``), :func:`enforce` runs on it
just before the write and bounds every indexed string at :data:`KEY_MAX_BYTES`, a quarter
of that limit:

- a value the caller gave (id, session, user, agent, fact key, entity names and triple
  parts, measured after canonicalisation: NFKC can turn one character into 18) that is over
  the cap is an :class:`InputError` naming the field, and nothing is written;
- an extracted entity key over the cap is replaced by a stable key (its longest prefix that
  fits, then a digest of the whole key: the same long name always gives the same entity),
  and its display name is shortened; a derived fact key likewise.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..evolution.keys import normalise_key
from ..text.keys import canonical_key

if TYPE_CHECKING:
    from .validate import Prepared

ENGINE_UNIQUE_LIMIT_BYTES = 4096
"""The longest string (UTF-8 bytes) FalkorDB 4.22.1 accepted under a unique constraint;
4,097 bytes crashed the server (docs/limits.md)."""

KEY_MAX_BYTES = 1024
"""The cap on every string written to a unique constraint or an index (a quarter of the
engine's limit; 256 characters of any script fit)."""

_DIGEST_CHARS = 16
_SCALARS = ("id", "session", "user", "agent")


def size(value: str) -> int:
    """UTF-8 length of ``value`` in bytes."""
    return len(value.encode("utf-8"))


def _cut(value: str, max_bytes: int) -> str:
    """The longest prefix of ``value`` of at most ``max_bytes`` UTF-8 bytes."""
    return value.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


def stable_key(key: str) -> str:
    """``key`` if it fits; else its longest fitting prefix, a space and 16 hex digits of its
    SHA-256 (still a canonical key: lower-case words separated by single spaces)."""
    if size(key) <= KEY_MAX_BYTES:
        return key
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:_DIGEST_CHARS]
    prefix = _cut(key, KEY_MAX_BYTES - _DIGEST_CHARS - 1).rstrip()
    return f"{prefix} {digest}" if prefix else digest


def short_name(name: str) -> str:
    """A display name cut to fit the cap (with an ellipsis when cut)."""
    if size(name) <= KEY_MAX_BYTES:
        return name
    return _cut(name, KEY_MAX_BYTES - 3).rstrip() + "…"


def require(field: str, value: str | None, what: str = "the value") -> None:
    """Refuse ``value`` over the cap with an :class:`InputError` naming ``field``."""
    if value is not None and size(value) > KEY_MAX_BYTES:
        raise InputError(
            field,
            f"{what} is {size(value)} bytes once normalised; the limit is {KEY_MAX_BYTES} bytes"
            " (see docs/limits.md): shorten it",
        )


def require_unique(field: str, value: str, what: str = "the value") -> None:
    """Refuse a string bound for a unique constraint (``Artifact.id``, ``Entity.key``) that is
    over the cap, or that starts or ends with white space: FalkorDB 4.22.1 segfaults in
    ``EnforceUniqueEntity`` when such a value is written beside another (``"0"`` then ``"0 "``,
    taking every tenant of the server down; FalkorDB/FalkorDB#1340; docs/limits.md)."""
    require(field, value, what)
    if value != value.strip():
        raise InputError(
            field,
            f"{what} must not start or end with white space ({value!r}): strip it (see docs/limits.md)",
        )


def check_given(p: Prepared) -> dict[str, str]:
    """Refuse a caller's value over the cap; return the entity keys the caller gave, each
    mapped to the field it came from (``entities`` or ``triples``).

    Raises:
        InputError: a value is over :data:`KEY_MAX_BYTES`; the field is named.
    """
    require_unique("id", p.id, "the id")
    for field in ("session", "user", "agent"):
        require(field, getattr(p, field), "the value")
    if p.key is not None:
        require("key", normalise_key(p.key), "the key")
    given: dict[str, str] = {}
    for name, _ in p.entities:
        require("entities", name, "an entity name")
        key = canonical_key(name, field="entities")
        require("entities", key, "an entity key")
        given.setdefault(key, "entities")
    for s, _, o in p.triples:
        for part in (s, o):
            require("triples", part, "a triple's entity name")
            key = canonical_key(part, field="triples")
            require("triples", key, "a triple's entity key")
            given.setdefault(key, "triples")
    return given


def enforce(row: dict[str, Any], p: Prepared) -> None:
    """Bound every indexed string of one ``ingest/create_artifacts`` row, in place.

    Raises:
        InputError: a value the caller gave is over the cap (nothing is written).
    """
    check_given(p)
    for field in _SCALARS:
        require(field, row.get(field), "the value")
    if row.get("key") is not None:
        if p.key is not None:
            require("key", row["key"], "the key")
        else:
            row["key"] = stable_key(row["key"])  # derived from (capped) entity keys
    for e in row["entities"]:
        e["key"], e["name"] = stable_key(e["key"]), short_name(e["name"])
    for t in row["triples"]:
        t["subject"], t["object"] = stable_key(t["subject"]), stable_key(t["object"])
        t["subject_name"], t["object_name"] = short_name(t["subject_name"]), short_name(t["object_name"])
        if t.get("label") is not None:
            t["label"] = short_name(t["label"])


__all__ = [
    "ENGINE_UNIQUE_LIMIT_BYTES", "KEY_MAX_BYTES", "check_given", "enforce", "require", "require_unique", "short_name", "size",
    "stable_key",
]  # fmt: skip
