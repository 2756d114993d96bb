"""Loads the ``cypher/`` folder into named, validated ``Query`` objects (no database I/O).

Each file holds one statement and opens with a header of ``//`` lines::

    // name: vector_search
    // mode: read
    // params: vector, fetch_k
    // Nearest active artifacts to a query embedding.

``name`` must equal the file stem; ``mode`` is ``read`` (sent with GRAPH.RO_QUERY) or
``write``; ``params`` lists every ``$parameter`` the text uses, and nothing else. The rest
of the header is the query's docstring. A broken file raises :class:`CypherFileError`
on the first ``query()`` of the process (every file is parsed then,
once), naming the file and the rule; not at import, which stays cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from ..errors import CypherFileError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_WRITE_CLAUSE = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DETACH)\b", re.IGNORECASE)
_HEADER = re.compile(r"^//\s*(name|mode|params)\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Query:
    """One named Cypher statement from ``cypher/<group>/<name>.cypher``."""

    name: str
    """``group/name``, e.g. ``retrieve/vector_search``."""
    mode: Literal["read", "write"]
    params: frozenset[str]
    text: str
    """The statement without its header."""
    doc: str
    source: str
    """``path:line`` of the statement's first line."""


def cypher_dir() -> Path:
    """The folder holding the Cypher files: inside the wheel, or the repo's top level."""
    here = Path(__file__).resolve().parent.parent  # falkmem/
    for candidate in (here / "cypher", here.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise CypherFileError(f"no cypher/ folder next to {here}; reinstall falkmem")


def _strip_strings(text: str) -> str:
    """Blank out string literals so their contents never look like parameters or clauses."""
    return re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", text)


def parse(path: Path, group: str) -> Query:
    """Parse and validate one file.

    Raises:
        CypherFileError: the header is missing or malformed, the name does not match the
            file, a parameter is used but not declared (or declared but unused), or a read
            query contains a write clause.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    fields: dict[str, str] = {}
    doc: list[str] = []
    body_start = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("//"):
            body_start = i
            break
        m = _HEADER.match(stripped)
        if m and m.group(1) not in fields:
            fields[m.group(1)] = m.group(2).strip()
        else:
            doc.append(stripped.lstrip("/").strip())
    else:
        body_start = len(lines)
    where = f"{path}:{body_start + 1}"
    for required in ("name", "mode", "params"):
        if required not in fields:
            raise CypherFileError(f"{path}: header line '// {required}: ...' is missing")
    if fields["name"] != path.stem:
        raise CypherFileError(f"{path}: name '{fields['name']}' must equal the file name")
    mode = fields["mode"]
    if mode not in ("read", "write"):
        raise CypherFileError(f"{path}: mode must be 'read' or 'write', not '{mode}'")
    declared = frozenset(p.strip() for p in fields["params"].split(",") if p.strip())
    text = "\n".join(lines[body_start:]).strip()
    if not text:
        raise CypherFileError(f"{path}: the file has a header but no statement")
    code = _strip_strings("\n".join(ln for ln in text.splitlines() if not ln.strip().startswith("//")))
    used = frozenset(_PARAM.findall(code))
    if used - declared:
        raise CypherFileError(f"{where}: parameters used but not declared: {sorted(used - declared)}")
    if declared - used:
        raise CypherFileError(f"{where}: parameters declared but not used: {sorted(declared - used)}")
    if mode == "read" and _WRITE_CLAUSE.search(code):
        raise CypherFileError(f"{where}: a read query contains a write clause")
    return Query(
        name=f"{group}/{fields['name']}",
        mode=mode,  # type: ignore[arg-type]  # checked just above
        params=declared,
        text=text,
        doc=" ".join(doc),
        source=where,
    )


@cache
def load_all() -> dict[str, Query]:
    """Every query under ``cypher/``, keyed ``group/name`` (parsed once per process)."""
    root = cypher_dir()
    queries: dict[str, Query] = {}
    for path in sorted(root.rglob("*.cypher")):
        group = path.parent.relative_to(root).as_posix()
        q = parse(path, group)
        if q.name in queries:
            raise CypherFileError(f"{path}: duplicate query name {q.name}")
        queries[q.name] = q
    return queries


def query(name: str) -> Query:
    """The query called ``group/name``.

    Raises:
        CypherFileError: no such query file.
    """
    try:
        return load_all()[name]
    except KeyError:
        raise CypherFileError(f"no Cypher file for query '{name}' in {cypher_dir()}") from None
