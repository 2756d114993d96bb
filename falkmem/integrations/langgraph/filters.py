"""LangGraph's ``filter=`` and namespace match conditions, as ``FalkmemStore`` applies them.

Equalities (``{"field": x}``, ``{"field": {"$eq": x}}``) on top-level fields run in the engine as
metadata equality on ``v:<field>``; the other operators (``$ne``, ``$gt``, ``$gte``, ``$lt``,
``$lte``), partial matches of nested objects and dotted paths (``"user.level"``) are checked here,
on the items the engine returned, as LangGraph's in-memory store checks them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.store.base import MatchCondition

__all__ = ["OPERATORS", "field_value", "matches", "namespace_matches", "split_filter"]

OPERATORS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"})


def split_filter(flt: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(engine equality on ``v:<field>``, the conditions checked here).

    Raises:
        ValueError: an operator LangGraph does not define (``$in``, ``$exists``...), naming it.
    """
    engine: dict[str, Any] = {}
    here: dict[str, Any] = {}
    for field, cond in (flt or {}).items():
        if isinstance(cond, Mapping) and any(str(k).startswith("$") for k in cond):
            unknown = sorted(str(k) for k in cond if k not in OPERATORS)
            if unknown:
                raise ValueError(
                    f"filter.{field}: unsupported operator {unknown[0]} (use one of {sorted(OPERATORS)})"
                )
            if set(cond) == {"$eq"} and "." not in str(field):
                engine[f"v:{field}"] = cond["$eq"]
            else:
                here[field] = cond
        elif isinstance(cond, Mapping) or "." in str(field):
            here[field] = cond  # a partial match of a nested object, or a dotted path
        else:
            engine[f"v:{field}"] = cond
    return engine, here


def field_value(value: Mapping[str, Any], field: str) -> Any:
    """The value a filter's ``field`` names: a top-level key, or a dotted path into nested
    objects (``"user.level"``, as LangGraph's SQLite and in-memory stores read it)."""
    if field in value or "." not in field:
        return value.get(field)
    got: Any = value
    for part in field.split("."):
        if not isinstance(got, Mapping):
            return None
        got = got.get(part)
    return got


def _op(value: Any, operator: str, arg: Any) -> bool:
    if operator == "$eq":
        return bool(value == arg)
    if operator == "$ne":
        return bool(value != arg)
    if value is None:
        return False
    try:
        a, b = float(value), float(arg)
    except (TypeError, ValueError):
        return False
    if operator == "$gt":
        return a > b
    if operator == "$gte":
        return a >= b
    if operator == "$lt":
        return a < b
    return a <= b  # $lte (split_filter let no other operator through)


def matches(value: Any, cond: Any) -> bool:
    """Whether an item's field ``value`` meets one filter condition."""
    if isinstance(cond, Mapping):
        if any(str(k).startswith("$") for k in cond):
            return all(_op(value, k, v) for k, v in cond.items())
        return isinstance(value, Mapping) and all(matches(value.get(k), v) for k, v in cond.items())
    if isinstance(cond, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(cond)
            and all(matches(v, c) for v, c in zip(value, cond, strict=True))
        )
    return bool(value == cond)


def namespace_matches(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    """LangGraph's prefix/suffix match of a namespace (``*`` matches any one label)."""
    path = tuple(cond.path)
    if len(path) > len(ns):
        return False
    part = ns[: len(path)] if cond.match_type == "prefix" else ns[len(ns) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
