"""Test helpers: a dump and fingerprint of a whole graph (every node and edge, every property),
and an embedder that records what it embeds.

The Cypher they run lives in ``tests/cypher/`` and goes through falkmem's own loader.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from falkmem.embedding.base import Embedder
from falkmem.storage.cypher import Query, parse

_DIR = Path(__file__).parent / "cypher"


def test_query(name: str) -> Query:
    return parse(_DIR / f"{name}.cypher", "tests")


def graph_rows(mem: Any, graph: str) -> list[Any]:
    """Every node and edge of ``graph`` as raw rows ([] when the graph does not exist)."""
    db = mem._engine.store.db
    if not db.connection.exists(graph):
        return []
    g = db.select_graph(graph)
    nodes = g.ro_query(test_query("all_nodes").text).result_set
    edges = g.ro_query(test_query("all_edges").text).result_set
    return list(nodes) + list(edges)


def graph_dump(mem: Any, graph: str) -> list[str]:
    return sorted(json.dumps(row, sort_keys=True, default=str) for row in graph_rows(mem, graph))


def fingerprint(mem: Any, graph: str) -> str:
    return hashlib.sha256("\n".join(graph_dump(mem, graph)).encode()).hexdigest()


test_query.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def indexed_ids(mem: Any, graph: str, k: int = 1000) -> set[str]:
    """Every artifact id the vector index can return (k at least the number of artifacts)."""
    g = mem._engine.store.db.select_graph(graph)
    dim = mem._engine.embedder.dimension
    rows = g.ro_query(
        test_query("indexed_ids").text, {"vector": [1.0] + [0.0] * (dim - 1), "k": k}
    ).result_set
    return {r[0] for r in rows}


def unit_vector(i: int, dim: int = 384) -> list[float]:
    """A deterministic unit vector per i (precomputed embeddings load thousands of memories fast)."""
    v = [0.0] * dim
    v[i % dim] = 1.0
    v[(i * 7 + 3) % dim] += 0.5
    n = sum(x * x for x in v) ** 0.5
    return [x / n for x in v]


def built_set(main: Any, corpus: list[dict[str, str]], tmp_path: Path) -> list[dict[str, Any]]:
    """Run a 2Wiki-built check's writer (``benchmarks.wiki_*.main``) on ``corpus``; the objects of
    the JSON Lines file it wrote (passages as memories, then the questions)."""
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    out = tmp_path / "set.jsonl"
    assert main(["--out", str(out), "--corpus", str(path)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


class Recording:
    """The real embedder, recording which batch (by its first text) it embeds and when."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.started: list[str] = []
        self.texts = 0
        self.fail_on: str | None = None
        self.event = threading.Condition()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self.event:
            self.started.append(texts[0])
            self.event.notify_all()
        if self.fail_on is not None and self.fail_on in texts:
            raise RuntimeError("embedding backend down")
        self.texts += len(texts)
        return self.inner.embed(texts)

    def wait_started(self, first_text: str, timeout: float = 20.0) -> bool:
        with self.event:
            return self.event.wait_for(lambda: first_text in self.started, timeout=timeout)
