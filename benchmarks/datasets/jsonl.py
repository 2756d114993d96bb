"""Your own memories and questions as JSON Lines (format in benchmarks/README.md).

One object per line, ``type`` says which::

    {"type": "memory", "id": "m1", "text": "Priya leads the Atlas team.", "tenant": "acme",
     "session": "s1", "at": "2025-03-01T10:00:00", "kind": "fact",
     "triples": [["Priya", "leads", "Atlas team"]]}
    {"type": "question", "id": "q1", "text": "Who leads Atlas?", "gold": ["m1"], "hops": 1,
     "tenant": "acme"}

``tenant`` defaults to ``jsonl``; ``hops`` to the number of gold ids; blank lines and lines
starting with ``#`` are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData

_MEMORY_FIELDS = {"type", "tenant", "id", "text", "kind", "session", "speaker", "user", "at", "metadata",
                  "entities", "triples"}  # fmt: skip
_QUESTION_FIELDS = {"type", "tenant", "id", "text", "gold", "hops", "category"}


def _require(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or (isinstance(value, str | list) and not value):
        raise DatasetInvalid(f"{where}: '{key}' must be a non-empty {kind.__name__}")
    return value


def parse_line(obj: Any, where: str) -> tuple[str, MemoryItem | Question]:
    """(tenant, item) from one decoded line."""
    if not isinstance(obj, dict):
        raise DatasetInvalid(f"{where}: expected a JSON object")
    kind = obj.get("type")
    tenant = str(obj.get("tenant") or "jsonl")
    if kind == "memory":
        extra = set(obj) - _MEMORY_FIELDS
        if extra:
            raise DatasetInvalid(f"{where}: unknown memory fields {sorted(extra)}")
        triples = obj.get("triples")
        if triples is not None and not all(isinstance(t, list) and len(t) == 3 for t in triples):
            raise DatasetInvalid(f"{where}: 'triples' must be a list of [subject, relation, object]")
        return tenant, MemoryItem(
            id=str(_require(obj, "id", str, where)), text=_require(obj, "text", str, where),
            kind=str(obj.get("kind") or "episode"), session=obj.get("session"), speaker=obj.get("speaker"),
            user=obj.get("user"), at=obj.get("at"), metadata=obj.get("metadata"),
            entities=tuple(obj["entities"]) if obj.get("entities") else None,
            triples=tuple(tuple(str(x) for x in t) for t in triples) if triples else None,  # type: ignore[misc]
        )  # fmt: skip
    if kind == "question":
        extra = set(obj) - _QUESTION_FIELDS
        if extra:
            raise DatasetInvalid(f"{where}: unknown question fields {sorted(extra)}")
        gold = tuple(str(g) for g in _require(obj, "gold", list, where))
        hops = obj.get("hops", len(gold))
        if not isinstance(hops, int) or hops < 1:
            raise DatasetInvalid(f"{where}: 'hops' must be a positive integer")
        return tenant, Question(
            id=str(_require(obj, "id", str, where)), text=_require(obj, "text", str, where), gold=gold,
            hops=hops, category=str(obj.get("category") or "question"),
        )  # fmt: skip
    raise DatasetInvalid(f"{where}: 'type' must be 'memory' or 'question'")


def load(path: Path | None, *, questions: int | None = None) -> Dataset:
    """Read a JSONL file into one tenant per distinct ``tenant`` value."""
    if path is None:
        raise DatasetMissing("the jsonl dataset needs --file PATH (see benchmarks/README.md)")
    if not path.is_file():
        raise DatasetMissing(f"JSONL file {path} does not exist")
    tenants: dict[str, TenantData] = {}
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetInvalid(f"{path}:{n}: not JSON ({exc.msg})") from None
            tenant, item = parse_line(obj, f"{path}:{n}")
            t = tenants.setdefault(tenant, TenantData(tenant=tenant, memories=[], questions=[]))
            if isinstance(item, MemoryItem):
                t.memories.append(item)
            elif questions is None or len(t.questions) < questions:
                t.questions.append(item)
    if not tenants:
        raise DatasetInvalid(f"{path}: no memories or questions")
    ds = Dataset(name="jsonl", tenants=list(tenants.values()), info={"file": str(path)})
    ds.check()
    return ds
