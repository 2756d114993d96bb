"""Schema steps that compute in Python what Cypher cannot, page by page.

Migration 11 stores each artifact's Snowball stem counts (``a.stems``), which the keyword
channel's BM25 reads in the server; the server cannot stem, so tenants written before it are
filled here, and so are imports of export files written before it. Each page is one read and
one write; a step interrupted half-way resumes where it stopped (it only picks artifacts still
missing the property).

Migration 12 links the memories of each session in turn order (NEXT edges, ``Session.last``),
which the write path does for new memories since; tenants written before it, and imports of
files exported before it, are linked here, session by session.
"""

from __future__ import annotations

from ..keyword.stem import stem_bag
from .cypher import query
from .executor import Executor

PAGE = 500
"""Artifacts (or sessions) per round trip."""


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


def fill_next(executor: Executor, graph: str, *, page: int = PAGE) -> int:
    """Link the memories of every session that has no turn order yet; how many sessions were linked.

    A session's order is its memories' ``valid_at``, then ``created_at``, then write sequence,
    then id (``schema/b012_session_turns``). Sessions already ordered (``Session.last`` set:
    linked by the write path) are left as they are.
    """
    linked = 0
    after = -1
    while True:
        rows = executor.run(graph, query("schema/b012_session_turns"), {"after": after, "limit": page})
        if not rows:
            return linked
        for r in rows:
            ids = [str(i) for i in r["ids"] or []]
            if not r["ordered"] and ids:
                executor.run(graph, query("schema/b012_link_turns"), {"session": r["session"], "ids": ids})
                linked += 1
        after = max(int(r["cursor"]) for r in rows)
        if len(rows) < page:
            return linked
