"""The export file format (JSONL, version 1): its line types, and the check of a whole file.

See ``docs/cli.md`` for the line-by-line description.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, TypeGuard

from ..ingest import caps
from ..storage.migrations import SCHEMA_VERSION
from .records import BadLines, _Problems

FORMAT = "falkmem-export"
FORMAT_VERSION = 1
NODE_TYPES: dict[str, tuple[str, str, str]] = {
    "entity": ("Entity", "key", "entities"),
    "session": ("Session", "id", "sessions"),
    "user": ("User", "id", "users"),
    "agent": ("Agent", "id", "agents"),
}
"""Line type → (node label, identifying property, query suffix)."""

EDGE_TYPES: dict[str, tuple[str, str, str]] = {
    "RELATED_TO": ("related", "entity", "entity"),
    "HAS_SESSION": ("has_session", "user", "session"),
    "SUPERSEDES": ("supersedes", "artifact", "artifact"),
    "NEXT": ("next", "artifact", "artifact"),
}
"""Edge type → (query suffix, source line type, target line type)."""

DERIVED_LABELS = frozenset({"_Meta", "_Term"})
"""Labels an export leaves out: the tenant's metadata (the header carries what an import needs)
and its document frequencies (``_Term``: counted again from the artifacts on import)."""
KNOWN_LABELS = frozenset({*DERIVED_LABELS, "Artifact", *(spec[0] for spec in NODE_TYPES.values())})
KNOWN_EDGES = frozenset({"REFERENCES", "CONTAINS", "PRODUCED", *EDGE_TYPES})
_RANK = {"header": 0, "entity": 1, "session": 1, "user": 1, "agent": 1, "artifact": 2, "edge": 3, "end": 4}


def _scalar_ok(v: Any) -> bool:
    if isinstance(v, float):
        return math.isfinite(v)
    return v is None or isinstance(v, (str, int, bool))


def _props_ok(props: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(props, dict) and all(
        _scalar_ok(v) or (isinstance(v, list) and all(_scalar_ok(x) for x in v)) for v in props.values()
    )


def read_export(lines: Iterable[str]) -> dict[str, Any]:
    """Check a whole export file before anything is written; return its header.

    Every line is checked: JSON, known type, order, required fields, property types, the
    embedding dimension against the header's, and that every link's endpoints are in the
    file. The ``end`` line must match the counts (a truncated file is refused).

    Raises:
        BadLines: with the number and the problem of each bad line (at most 100 kept).
    """
    problems = _Problems()
    header: dict[str, Any] = {}
    seen: dict[str, set[str]] = {k: set() for k in (*NODE_TYPES, "artifact")}
    counts: dict[str, int] = {}
    rank = -1
    ended = False
    number = 0
    for number, raw in enumerate(lines, start=1):
        try:
            obj = json.loads(raw)
        except ValueError:
            problems.add(number, "not valid JSON")
            continue
        kind = obj.get("type") if isinstance(obj, dict) else None
        if kind not in _RANK:
            problems.add(number, f"unknown line type {kind!r}" if isinstance(kind, str) else "no line type")
            continue
        if (number == 1) != (kind == "header") or ended or _RANK[kind] < rank:
            problems.add(number, f"a {kind} line is out of order (header, nodes, artifacts, edges, end)")
            continue
        rank = _RANK[kind]
        if kind == "header":
            header = obj
            dim = obj.get("dimension")
            if obj.get("format") != FORMAT or obj.get("version") != FORMAT_VERSION:
                problems.add(number, f"not a {FORMAT} version {FORMAT_VERSION} file")
            if not isinstance(dim, int) or dim < 1:
                problems.add(number, "dimension must be a positive integer")
            if not isinstance(obj.get("schema_version"), int) or obj["schema_version"] > SCHEMA_VERSION:
                problems.add(
                    number, f"schema_version must be an integer <= {SCHEMA_VERSION} (upgrade falkmem)"
                )
        elif kind == "end":
            ended = True
            if obj.get("counts") != counts:
                problems.add(
                    number, f"the end line's counts {obj.get('counts')} do not match the file's {counts}"
                )
        else:
            _check_line(number, kind, obj, header, seen, problems)
            tally = obj.get("rel") if kind == "edge" else kind
            counts[str(tally)] = counts.get(str(tally), 0) + 1
    if not ended:
        problems.add(number + 1, "the file ends without its end line (truncated?)")
    if problems.total:
        raise BadLines("file", problems.kept, problems.total)
    return header


def _check_line(
    number: int,
    kind: str,
    obj: dict[str, Any],
    header: dict[str, Any],
    seen: dict[str, set[str]],
    problems: _Problems,
) -> None:
    props = obj.get("props")
    if not _props_ok(props):
        problems.add(number, "props must be an object of strings, numbers, booleans or lists of them")
        return
    if kind in NODE_TYPES or kind == "artifact":
        key = NODE_TYPES[kind][1] if kind in NODE_TYPES else "id"
        ident = props.get(key)
        if not isinstance(ident, str) or not ident:
            problems.add(number, f"props.{key} must be a non-empty string")
            return
        if caps.size(ident) > caps.KEY_MAX_BYTES:  # a unique key the engine cannot hold (issue 15)
            problems.add(
                number,
                f"props.{key} is {caps.size(ident)} bytes; the limit is {caps.KEY_MAX_BYTES} (docs/limits.md)",
            )
            return
        if ident in seen[kind]:
            problems.add(number, f"duplicate {kind} {key}")
            return
        seen[kind].add(ident)
    if kind == "artifact":
        emb = obj.get("embedding")
        if emb is not None and (
            not isinstance(emb, list) or not all(isinstance(x, (int, float)) and _scalar_ok(x) for x in emb)
        ):
            problems.add(number, "embedding must be a list of finite numbers")
        elif emb is not None and len(emb) != header.get("dimension"):
            problems.add(
                number, f"embedding has {len(emb)} values; the header says {header.get('dimension')}"
            )
        for field_, target, key in (
            ("references", "entity", "key"),
            ("sessions", "session", "id"),
            ("agents", "agent", "id"),
        ):
            links = obj.get(field_)
            if not isinstance(links, list) or not all(
                isinstance(x, dict) and x.get(key) in seen[target] and _props_ok(x.get("props"))
                for x in links
            ):
                problems.add(number, f"{field_} must list {target} lines that come earlier in the file")
    elif kind == "edge":
        spec = EDGE_TYPES.get(str(obj.get("rel")))
        if spec is None:
            problems.add(number, f"edge rel must be one of {sorted(EDGE_TYPES)}")
        elif obj.get("src") not in seen[spec[1]] or obj.get("dst") not in seen[spec[2]]:
            problems.add(
                number, f"{obj.get('rel')} edge endpoints must be {spec[1]}/{spec[2]} lines of the file"
            )
