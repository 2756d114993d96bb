"""Schema steps that compute in Python what Cypher cannot, page by page.

Migration 11 stores each artifact's Snowball stem counts (``a.stems``), which the keyword
channel's BM25 reads in the server; the server cannot stem, so tenants written before it are
filled here, and so are imports of export files written before it. Each page is one read and
one write; a step interrupted half-way resumes where it stopped (it only picks artifacts still
missing the property).

Migration 12 links the memories of each session in turn order (NEXT edges, ``Session.last``),
which the write path does for new memories since; tenants written before it, and imports of
files exported before it, are linked here, session by session.

Migration 14 counts each stem's documents (``_Term {stem, df}``) from the stored stem counts,
which the write path and erasure maintain since; the keyword channel reads them instead of
counting a question's terms in the full-text index at every search. Imports count them here
too. A count starts from none, so a step interrupted half-way is simply run again.

Migration 15 makes a titled memory about its whole title (``extraction/rules.whole_title``:
"How I Lost My Umbrella", not only the "Lost My Umbrella" found inside it), as the write path
does since: the title's entity, linked in the memory's head. Chat turns (a speaker) are left
as they are.

Migration 16 packs each ``RELATED_TO`` edge's stating memories, kept as a list of ids
(``artifact_ids``), into the two strings the write path keeps since (``evidence_old`` +
``evidence``, ids joined by a control character: ~17 bytes an id in the server against ~68,
and a restatement rewrites at most 128 of them; ``ingest/create_batch``). Imports of files
written before (or by the export, which writes the list) are packed here too.
"""

from __future__ import annotations

import time
from collections import Counter

from ..extraction.rules import whole_title
from ..ingest.aggregate import EVIDENCE_KEEP, EVIDENCE_SEP, EVIDENCE_SPILL_AT
from ..keyword.stem import parse_bag, stem_bag
from .cypher import query
from .executor import Executor

PAGE = 500
"""Artifacts (or sessions) per round trip."""

TERM_PAGE = 5_000
"""Artifacts read, or document frequencies written, per round trip when counting stems."""


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


def fill_terms(executor: Executor, graph: str, *, page: int = TERM_PAGE) -> int:
    """Count, from the artifacts' stored stem counts, how many artifacts hold each stem, and
    store it as the tenant's document frequencies (``_Term`` nodes), replacing any there were;
    how many stems were stored. Artifacts without stem counts (before migration 11) count for
    nothing: migration 11 fills them first."""
    while True:
        done = executor.run(graph, query("schema/b014_clear_terms"), {"limit": page})
        if not done or int(done[0]["deleted"]) == 0:
            break
    df: Counter[str] = Counter()
    after = -1
    while True:
        rows = executor.run(graph, query("schema/b014_artifact_stems"), {"after": after, "limit": page})
        for r in rows:
            df.update(parse_bag(r["stems"] or "").keys())  # each stem once: one document
        if len(rows) < page:
            break
        after = max(int(r["cursor"]) for r in rows)
    items = [{"stem": s, "df": n} for s, n in df.items()]
    for i in range(0, len(items), page):
        executor.run(graph, query("schema/b014_add_terms"), {"rows": items[i : i + page]})
    return len(items)


def fill_titles(executor: Executor, graph: str, *, page: int = PAGE) -> int:
    """Link every titled memory without a speaker to its whole title's entity, in its head;
    how many memories were linked (or had the link made a head link)."""
    linked = 0
    after = -1
    while True:
        rows = executor.run(
            graph, query("schema/b015_titled_artifacts"), {"after": after, "limit": page, "nl": "\n"}
        )
        if not rows:
            return linked
        batch = []
        for r in rows:
            if (entity := whole_title(str(r["text"] or ""))) is not None:
                batch.append({"id": r["id"], "key": entity.key, "name": entity.name})
        if batch:
            executor.run(graph, query("schema/b015_link_titles"), {"rows": batch, "now": time.time()})
            linked += len(batch)
        after = max(int(r["cursor"]) for r in rows)
        if len(rows) < page:
            return linked


EDGE_PAGE = 2_000
"""Entities whose outgoing RELATED_TO edges are packed per round trip (migration 16)."""


def fill_evidence(executor: Executor, graph: str, *, page: int = EDGE_PAGE) -> int:
    """Pack every ``RELATED_TO`` edge's ``artifact_ids`` list into its evidence strings; how
    many edges were packed (0 when there was none left)."""
    packed = 0
    after = -1
    while True:
        rows = executor.run(
            graph, query("schema/b016_pack_evidence"),
            {"after": after, "limit": page, "sep": EVIDENCE_SEP, "spill_at": EVIDENCE_SPILL_AT, "keep": EVIDENCE_KEEP},
        )  # fmt: skip
        if not rows or rows[0]["cursor"] is None:
            return packed
        packed += int(rows[0]["packed"] or 0)
        after = int(rows[0]["cursor"])
