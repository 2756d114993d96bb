"""Search filters as Cypher parameters (no I/O): every filtered query carries one WHERE fragment,
``$f_x IS NULL OR node.x IN $f_x`` per parameter, so one query file serves filtered and
unfiltered calls. Metadata equality runs on ``meta_kv``, the canonical ``[key, value]`` JSON
strings the writer stores per top-level key (:func:`metadata_pairs`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict, Unpack

from ..errors import InputError, LimitExceeded
from ..ingest.validate import to_timestamp, valid_unicode
from ..models import KINDS

__all__ = [
    "FILTER_NAMES", "FilterArgs", "Filters", "OneOrMany", "build_filters", "check_filter_names",
    "metadata_pairs", "pair",
]  # fmt: skip

OneOrMany = str | Sequence[str] | None
"""A filter on one field: one value, a list of accepted values (any of them), or None."""


class FilterArgs(TypedDict, total=False):
    """The filter keywords of ``search``, ``search_many``, ``explain``, ``context``, ``list`` and
    ``forget``, e.g. ``tenant.search("q", kind="fact", user=["dana", "omar"], since="2026-01-01")``:
    ``session``, ``user``, ``agent``, ``speaker``, ``kind``: one value or a list (any of them);
    ``since <= valid_at < until`` (datetimes or ISO-8601; naive = UTC); ``metadata``: equality on
    top-level keys (all must hold). Filters are ANDed and compose with ``as_of``."""

    session: OneOrMany
    user: OneOrMany
    agent: OneOrMany
    speaker: OneOrMany
    kind: OneOrMany
    since: datetime | str | None
    until: datetime | str | None
    metadata: Mapping[str, Any] | None


FILTER_NAMES: tuple[str, ...] = tuple(FilterArgs.__annotations__)

_MAX_VALUES = 1000
_SHORT_MAX = 256
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _canonical(value: Any) -> Any:
    # 2 and 2.0 are equal in Python and in JSON numbers: store and compare them one way.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def pair(key: str, value: Any, *, allow_nan: bool = False) -> str:
    """The canonical ``[key, value]`` JSON string of one metadata entry (what ``meta_kv`` holds);
    ``allow_nan`` for a filter (no stored pair holds NaN: ``add()`` refuses it)."""
    return json.dumps(
        [key, _canonical(value)],
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=allow_nan,
    )


def metadata_pairs(metadata: Mapping[str, Any] | str | None) -> list[str] | None:
    """``meta_kv`` for an artifact's metadata (a dict or its JSON); None when there is none."""
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata) if metadata else None
        except ValueError:
            return None
    if not metadata or not isinstance(metadata, Mapping):
        return None
    return sorted(pair(str(k), v) for k, v in metadata.items())


@dataclass(frozen=True, slots=True)
class Filters:
    """What every hit must match (None: no condition); fields are ANDed, values within one ORed.
    ``since``/``until``: epoch seconds; ``metadata``: :func:`pair` strings, all required."""

    sessions: tuple[str, ...] | None = None
    users: tuple[str, ...] | None = None
    agents: tuple[str, ...] | None = None
    speakers: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    since: float | None = None
    until: float | None = None
    metadata: tuple[str, ...] | None = None

    @property
    def active(self) -> bool:
        """True when at least one condition is set."""
        return any(v is not None for v in self.params().values())

    def params(self) -> dict[str, Any]:
        """The Cypher parameters ``$f_sessions`` … ``$f_meta`` of the filter fragment."""
        return {
            "f_sessions": _lst(self.sessions),
            "f_users": _lst(self.users),
            "f_agents": _lst(self.agents),
            "f_speakers": _lst(self.speakers),
            "f_kinds": _lst(self.kinds),
            "f_since": self.since,
            "f_until": self.until,
            "f_meta": _lst(self.metadata),
        }


def _lst(values: tuple[str, ...] | None) -> list[str] | None:
    return list(values) if values is not None else None


def _values(value: object, field: str, *, allowed: frozenset[str] | None = None) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, Sequence) or isinstance(items, bytes | bytearray):
        raise InputError(field, "must be a string or a list of strings")
    if not 1 <= len(items) <= _MAX_VALUES:
        raise LimitExceeded(field, f"must name 1 to {_MAX_VALUES} values")
    out: list[str] = []
    for v in items:
        if not isinstance(v, str) or not v.strip():
            raise InputError(field, "each value must be a non-empty string")
        if len(v) > _SHORT_MAX:
            raise LimitExceeded(field, f"each value must be at most {_SHORT_MAX} characters")
        if _CONTROL.search(v):
            raise InputError(field, "must not contain control characters (U+0000–U+001F, U+007F)")
        valid_unicode(v, field)
        if allowed is not None and v not in allowed:
            raise InputError(field, f"must be one of {sorted(allowed)}, not {v!r}")
        out.append(v)
    return tuple(dict.fromkeys(out))


def _metadata(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not value:
        raise InputError(
            "metadata", 'must be a non-empty dict of top-level keys to values, e.g. {"project": "x"}'
        )
    out: list[str] = []
    for k, v in value.items():
        if not isinstance(k, str) or not k:
            raise InputError("metadata", "keys must be non-empty strings")
        field = f"metadata.{k}"
        valid_unicode(k, "metadata")
        try:
            # NaN and ±infinity become a pair no memory holds: the equality matches nothing
            p = pair(k, v, allow_nan=True)
        except (TypeError, ValueError):
            raise InputError(
                field, "must be JSON-serialisable (str, int, float, bool, None, lists and dicts)"
            ) from None
        out.append(valid_unicode(p, field))
    return tuple(sorted(out))


def _time(value: datetime | str | None, field: str) -> float | None:
    if value is None:
        return None
    return to_timestamp(value, field, default=0.0)


def check_filter_names(names: Iterable[str]) -> None:
    """Reject a keyword that is not a filter with a ``TypeError`` naming it, as Python would."""
    unknown = sorted(set(names).difference(FILTER_NAMES))
    if unknown:
        names = ", ".join(FILTER_NAMES)
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}; the filters are {names}")


def build_filters(**filters: Unpack[FilterArgs]) -> Filters | None:
    """Validate the filter keywords into ``Filters`` (None when none is given); a bad value is an
    ``InputError`` naming its field (``metadata.price``...)."""
    check_filter_names(filters)
    f = Filters(
        sessions=_values(filters.get("session"), "session"),
        users=_values(filters.get("user"), "user"),
        agents=_values(filters.get("agent"), "agent"),
        speakers=_values(filters.get("speaker"), "speaker"),
        kinds=_values(filters.get("kind"), "kind", allowed=KINDS),
        since=_time(filters.get("since"), "since"),
        until=_time(filters.get("until"), "until"),
        metadata=_metadata(filters.get("metadata")),
    )
    if f.since is not None and f.until is not None and f.since >= f.until:
        raise InputError("until", "must be later than since")
    return f if f.active else None
