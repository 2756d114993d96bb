"""Schema steps that compute in Python what Cypher cannot, page by page.

Migration 11 stores each artifact's Snowball stem counts (``a.stems``), which the keyword
channel's BM25 reads in the server; the server cannot stem, so tenants written before it are
filled here, and so are imports of export files written before it. Each page is one read and
one write; a step interrupted half-way resumes where it stopped (it only picks artifacts still
missing the property).
"""

from __future__ import annotations

from ..keyword.stem import stem_bag
from .cypher import query
from .executor import Executor

PAGE = 500
"""Artifacts per round trip."""


def fill_stems(executor: Executor, graph: str, *, page: int = PAGE) -> int:
    """Store the stem counts of every artifact of ``graph`` that has none; how many were filled."""
    filled = 0
    while True:
        rows = executor.run(graph, query("schema/b011_stems_missing"), {"limit": page})
        if not rows:
            return filled
        batch = [{"id": r["id"], "stems": stem_bag(r["text"] or "", r["attribution"])[1]} for r in rows]
        done = executor.run(graph, query("schema/b011_set_stems"), {"rows": batch})
        updated = int(done[0]["updated"]) if done else 0
        filled += updated
        if updated == 0:  # erased between the two trips: nothing left that this step can fill
            return filled
