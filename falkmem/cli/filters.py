"""The search filters as CLI options (``--session``, ``--kind``, ``--since``, ``--meta k=v``...),
shared by search, context, explain, list and forget."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import click

from ..errors import InputError

_OPTIONS: tuple[tuple[str, str], ...] = (
    ("--session", "Only memories of this session (repeat for any of several)."),
    ("--user", "Only memories of this user (repeatable)."),
    ("--agent", "Only memories of this agent (repeatable)."),
    ("--speaker", "Only memories said by this speaker (repeatable)."),
    ("--kind", "Only memories of this kind (repeatable)."),
)


def _meta(values: tuple[str, ...]) -> dict[str, Any] | None:
    if not values:
        return None
    out: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise InputError("meta", f"must be KEY=VALUE, not {item!r}")
        try:
            out[key] = json.loads(raw)  # 3, true, null, "x" are JSON; anything else is a string
        except ValueError:
            out[key] = raw
    return out


def filter_options[F: Callable[..., Any]](f: F) -> F:
    """Add the filter options and pass them on as one ``filters`` dict of SDK keywords."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        filters: dict[str, Any] = {}
        for name, _ in _OPTIONS:
            values = kwargs.pop(name[2:])
            if values:
                filters[name[2:]] = list(values)
        for name in ("since", "until"):
            value = kwargs.pop(name)
            if value is not None:
                filters[name] = value
        meta = _meta(kwargs.pop("meta"))
        if meta is not None:
            filters["metadata"] = meta
        return f(*args, filters=filters, **kwargs)

    out: Any = wrapper
    out = click.option(
        "--meta", multiple=True, metavar="KEY=VALUE",
        help="Only memories whose metadata KEY equals VALUE (JSON, else a string; repeatable, all must hold).",
    )(out)  # fmt: skip
    out = click.option("--until", metavar="ISO", help="Only memories valid before this time (valid_at).")(out)
    out = click.option("--since", metavar="ISO", help="Only memories valid from this time on (valid_at).")(
        out
    )
    for name, text in reversed(_OPTIONS):
        out = click.option(name, multiple=True, metavar="VALUE", help=text)(out)
    result: F = out
    return result
