"""Numbered schema migrations of a tenant graph, applied in order and recorded in its ``_Meta`` node.

Most steps are files in ``cypher/schema/``; unique constraints are a server command
(``GRAPH.CONSTRAINT CREATE``), not Cypher, so they are described here as data; a backfill
computes in Python what Cypher cannot (``backfill.py``). A new migration is appended with the
next version; applied ones are never edited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .backfill import fill_evidence, fill_next, fill_stems, fill_terms, fill_titles
from .cypher import query
from .executor import Executor


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: a Cypher file, a unique constraint on (label, property), or a backfill."""

    version: int
    name: str
    constraint: tuple[str, str] | None = None
    backfill: Callable[[Executor, str], int] | None = None

    def apply(self, executor: Executor, graph: str, params: Mapping[str, Any]) -> None:
        if self.constraint is not None:
            label, prop = self.constraint
            executor.command(
                f"schema/{self.name}", graph,
                "GRAPH.CONSTRAINT", "CREATE", graph, "UNIQUE", "NODE", label, "PROPERTIES", 1, prop,
            )  # fmt: skip
            return
        if self.backfill is not None:
            self.backfill(executor, graph)
            return
        q = query(f"schema/{self.name}")
        executor.run(graph, q, {k: v for k, v in params.items() if k in q.params})


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "m001_artifact_id_index"),
    Migration(2, "m002_entity_key_index"),
    Migration(3, "m003_artifact_lookup_indexes"),
    Migration(4, "m004_session_index"),
    Migration(5, "m005_vector_index"),
    Migration(6, "m006_artifact_fulltext"),
    Migration(7, "m007_entity_fulltext"),
    Migration(8, "c008_artifact_id_unique", constraint=("Artifact", "id")),
    Migration(9, "c009_entity_key_unique", constraint=("Entity", "key")),
    Migration(10, "m010_drop_entity_fulltext"),
    Migration(11, "b011_artifact_stems", backfill=fill_stems),
    Migration(12, "b012_session_turns", backfill=fill_next),
    Migration(13, "m013_term_index"),
    Migration(14, "b014_term_df", backfill=fill_terms),
    Migration(15, "b015_title_entities", backfill=fill_titles),
    Migration(16, "b016_edge_evidence", backfill=fill_evidence),
    Migration(17, "m017_user_index"),
    Migration(18, "m018_agent_index"),
)
"""Every migration, in order. ``SCHEMA_VERSION`` is the last one's version."""

SCHEMA_VERSION = MIGRATIONS[-1].version
