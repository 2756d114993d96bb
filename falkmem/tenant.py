"""``Tenant``: the immutable per-tenant handle every SDK call goes through."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import InputError, LimitExceeded, NotFound
from .ingest.validate import Prepared, prepare
from .ingest.writer import write_batch
from .models import AddResult, Hit, Record, SearchResult
from .retrieval.vector import fetch_size, vector_search
from .storage.cypher import query
from .storage.rows import hit_from_row
from .embedding.base import embed_checked

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True, slots=True)
class Tenant:
    """One tenant's memory. Get it with ``Memory.tenant(id)``; it cannot be re-pointed."""

    id: str
    _engine: Engine

    @property
    def graph(self) -> str:
        """The FalkorDB graph key holding this tenant."""
        return self._engine.store.graph(self.id)

    # --- writing ------------------------------------------------------------------------
    def add(
        self,
        text: str,
        *,
        id: str | None = None,
        kind: str = "episode",
        session: str | None = None,
        speaker: str | None = None,
        agent: str | None = None,
        user: str | None = None,
        at: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
        key: str | None = None,
        entities: Sequence[str | dict[str, str]] | None = None,
        triples: Sequence[tuple[str, str, str] | dict[str, str]] | None = None,
    ) -> str:
        """Remember one memory and return its id (the given one, or a generated one).

        Adding an id that exists already changes nothing (idempotent).

        Raises:
            InputError: a field breaks a documented rule (nothing is written).
            StorageError: the store failed (nothing is written).
        """
        record = {
            "text": text, "id": id, "kind": kind, "session": session, "speaker": speaker,
            "agent": agent, "user": user, "at": at, "metadata": metadata, "key": key,
            "entities": entities, "triples": triples,
        }  # fmt: skip
        result = self.add_many([record])
        return (result.added or result.skipped)[0]

    def add_many(
        self,
        records: Iterable[Record | dict[str, Any]],
        *,
        batch_size: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> AddResult:
        """Remember many memories: one embedding call and one atomic write per batch.

        Every record is validated before anything is written, so one bad record means no
        write at all. Ids that exist already are skipped (reported in ``skipped``).

        Args:
            records: dicts with the fields of :class:`~falkmem.Record`, or Records.
            batch_size: records per embedding call and per write query.
            on_progress: called as ``on_progress(done, total)`` after each batch.

        Raises:
            InputError: a record breaks a rule; the message names the record index and field.
        """
        eng = self._engine
        s = eng.settings
        if not isinstance(batch_size, int) or not 1 <= batch_size <= s.max_batch:
            raise LimitExceeded("batch_size", f"must be between 1 and {s.max_batch}")
        now = time.time()
        prepared: list[Prepared] = []
        for i, r in enumerate(records):
            try:
                prepared.append(prepare(r, s, now=now))
            except InputError as exc:
                raise type(exc)(f"records[{i}].{exc.field}", exc.rule) from None
        if not prepared:
            return AddResult(added=(), skipped=())
        meta = eng.ensure_tenant(self.id)
        added: list[str] = []
        skipped: list[str] = []
        for start in range(0, len(prepared), batch_size):
            chunk = prepared[start : start + batch_size]
            out = write_batch(
                eng.store.executor, self.graph, chunk,
                embedder=eng.embedder, dimension=meta.dimension, now=now,
                extractor=eng.extractor, known=eng.known(self.id),
            )  # fmt: skip
            added.extend(out.added)
            skipped.extend(out.skipped)
            eng.note_entities(self.id, out.entity_keys)
            if on_progress is not None:
                on_progress(min(start + batch_size, len(prepared)), len(prepared))
        return AddResult(added=tuple(added), skipped=tuple(skipped))

    def delete(self, id: str) -> bool:
        """Delete one memory and its edges; False when no such id."""
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("ingest/delete_artifact"), {"id": id})
        return bool(rows and rows[0]["deleted"])

    # --- reading ------------------------------------------------------------------------
    def get(self, id: str) -> Hit:
        """The memory with this id (any status).

        Raises:
            NotFound: no memory has this id.
            TenantNotFound: the tenant does not exist.
        """
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("retrieve/get_artifacts"), {"ids": [id]})
        if not rows:
            raise NotFound(f"tenant {self.id!r} has no memory with id {id!r}")
        return hit_from_row(rows[0]["a"], 1.0)

    def count(self) -> int:
        """Number of active memories."""
        eng = self._engine
        eng.store.meta(self.id)
        rows = eng.store.executor.run(self.graph, query("retrieve/count_artifacts"))
        return int(rows[0]["n"]) if rows else 0

    def search(self, query_text: str, *, k: int = 10) -> SearchResult:
        """The ``k`` memories most relevant to ``query_text``, best first.

        Raises:
            InputError: empty query, query over the length limit, or k out of range.
            TenantNotFound: the tenant does not exist (reading never creates it).
        """
        eng = self._engine
        s = eng.settings
        _check_query(query_text, k, max_chars=s.max_query_chars, max_k=s.max_k)
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        meta = eng.store.meta(self.id)
        [vector] = embed_checked(eng.embedder, [query_text], dimension=meta.dimension)
        t1 = time.perf_counter()
        timings["embed"] = (t1 - t0) * 1000
        found = vector_search(
            eng.store.executor, self.graph, vector,
            k=k, fetch_k=fetch_size(k, minimum=s.overfetch_min, factor=s.overfetch_factor),
        )  # fmt: skip
        t2 = time.perf_counter()
        timings["vector"] = (t2 - t1) * 1000
        hits = tuple(hit_from_row(a, sim, {"vector": i + 1}) for i, (a, sim) in enumerate(found))
        timings["total"] = (time.perf_counter() - t0) * 1000
        return SearchResult(hits=hits, route="vector", reranker="none", timings_ms=timings)


def _check_query(text: object, k: object, *, max_chars: int, max_k: int) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InputError("query", "must be a non-empty string")
    if len(text) > max_chars:
        raise LimitExceeded("query", f"is {len(text)} characters; the limit is {max_chars}")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= max_k:
        raise LimitExceeded("k", f"must be an integer between 1 and {max_k}")
