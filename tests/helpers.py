"""Test helpers: a fingerprint of a whole graph (every node and edge with every property)."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def graph_dump(mem: Any, graph: str) -> list[str]:
    db = mem._engine.store.db
    if not db.connection.exists(graph):
        return []
    g = db.select_graph(graph)
    nodes = g.ro_query("MATCH (n) RETURN labels(n), properties(n)").result_set
    edges = g.ro_query(
        "MATCH (a)-[r]->(b) RETURN type(r), properties(r), properties(a), properties(b)"
    ).result_set
    return sorted(json.dumps(row, sort_keys=True, default=str) for row in nodes + edges)


def fingerprint(mem: Any, graph: str) -> str:
    return hashlib.sha256("\n".join(graph_dump(mem, graph)).encode()).hexdigest()
