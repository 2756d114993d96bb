"""Checks that read a tenant graph directly (through falkmem's executor, with the suite's Cypher)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from falkmem import Memory
from falkmem.ingest.aggregate import EVIDENCE_SEP
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
    evidence_twice: set[tuple[str, str, str, str]] = field(default_factory=set)
    """(artifact id, subject, relation, object) cited more than once by one edge"""

    @property
    def ids(self) -> set[str]:
        return set(self.texts)

    @property
    def duplicated(self) -> dict[str, int]:
        return {i: n for i, n in self.id_counts.items() if n > 1}


def integrity(mem: Memory, graph: str) -> Integrity:
    rows = run(mem, graph, "artifact_integrity")
    ev: dict[str, set[tuple[str, str, str]]] = {}
    twice: set[tuple[str, str, str, str]] = set()
    for r in run(mem, graph, "related_evidence", {"sep": EVIDENCE_SEP}):
        seen: set[str] = set()
        for i in r["ids"] or []:
            if str(i) in seen:
                twice.add((str(i), r["subject"], r["relation"], r["object"]))
            seen.add(str(i))
            ev.setdefault(str(i), set()).add((r["subject"], r["relation"], r["object"]))
    counts = {str(r["id"]): int(r["n"]) for r in run(mem, graph, "id_counts")}
    return Integrity(
        texts={str(r["id"]): str(r["text"]) for r in rows},
        entities={str(r["id"]): set(r["entities"]) for r in rows},
        without_embedding={str(r["id"]) for r in rows if not r["has_embedding"]},
        indexed=indexed_ids(mem, graph, k=max(len(rows), 1) + 10),
        evidence=ev,
        id_counts=counts,
        evidence_twice=twice,
    )


def stats_mismatches(mem: Memory, graph: str) -> list[str]:
    """What the write path's counters say against a recount of the stored memories: the
    tenant's document and token counts, each stem's document frequency, each entity's mention
    count. Empty when they agree (a batch written half would show here)."""
    from collections import Counter

    from falkmem.keyword.stem import parse_bag

    out: list[str] = []
    [meta] = run(mem, graph, "keyword_meta")
    arts = run(mem, graph, "artifact_stems")
    if meta["n_docs"] != len(arts):
        out.append(f"n_docs {meta['n_docs']} != {len(arts)} memories")
    tokens = sum(int(a["n_tokens"] or 0) for a in arts)
    if meta["n_tokens"] != tokens:
        out.append(f"n_tokens {meta['n_tokens']} != {tokens}")
    df: Counter[str] = Counter()
    for a in arts:
        df.update(parse_bag(a["stems"] or "").keys())
    stored = {str(r["stem"]): int(r["df"]) for r in run(mem, graph, "term_df")}
    wrong = {s for s in set(df) | set(stored) if df.get(s, 0) != stored.get(s, 0)}
    if wrong:
        out.append(f"{len(wrong)} stems with a wrong df, e.g. {sorted(wrong)[:3]}")
    for r in run(mem, graph, "entity_mentions"):
        if int(r["mentions"] or 0) != int(r["refs"]):
            out.append(f"entity {r['key']!r}: mentions {r['mentions']} != {r['refs']} links")
    return out
