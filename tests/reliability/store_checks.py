"""Checks that read a tenant graph directly (through falkmem's executor, with the suite's Cypher)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from falkmem import Memory
from falkmem.storage.cypher import Query, parse
from tests.helpers import indexed_ids

_DIR = Path(__file__).parent / "cypher"


def rq(name: str) -> Query:
    return parse(_DIR / f"{name}.cypher", "reliability")


def run(mem: Memory, graph: str, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return mem._engine.store.executor.run(graph, rq(name), params or {})


@dataclass
class Integrity:
    """What a tenant graph holds, artifact by artifact."""

    texts: dict[str, str]
    entities: dict[str, set[str]]
    without_embedding: set[str]
    indexed: set[str]
    evidence: dict[str, set[tuple[str, str, str]]]
    """artifact id -> the RELATED_TO edges that cite it"""
    id_counts: dict[str, int]

    @property
    def ids(self) -> set[str]:
        return set(self.texts)

    @property
    def duplicated(self) -> dict[str, int]:
        return {i: n for i, n in self.id_counts.items() if n > 1}


def integrity(mem: Memory, graph: str) -> Integrity:
    rows = run(mem, graph, "artifact_integrity")
    ev: dict[str, set[tuple[str, str, str]]] = {}
    for r in run(mem, graph, "related_evidence"):
        for i in r["ids"] or []:
            ev.setdefault(str(i), set()).add((r["subject"], r["relation"], r["object"]))
    counts = {str(r["id"]): int(r["n"]) for r in run(mem, graph, "id_counts")}
    return Integrity(
        texts={str(r["id"]): str(r["text"]) for r in rows},
        entities={str(r["id"]): set(r["entities"]) for r in rows},
        without_embedding={str(r["id"]) for r in rows if not r["has_embedding"]},
        indexed=indexed_ids(mem, graph, k=max(len(rows), 1) + 10),
        evidence=ev,
        id_counts=counts,
    )
