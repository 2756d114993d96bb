"""The write path: validated records → graph extraction → one embedding batch → atomic writes."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ..embedding.base import Embedder, embed_checked
from ..errors import DimensionMismatch, InputError
from ..evolution.keys import KeyPolicy, derive_key, fact_hash, normalise_key, rounds
from ..extraction.head import head_text, in_head
from ..extraction.known import KnownEntities
from ..extraction.types import EntityMention, Extraction, Triple
from ..extraction.vocab import ENTITY_TYPES, EntityType, normalize_relation
from ..keyword.stem import stem_bag
from ..retrieval.filters import metadata_pairs
from ..storage.cypher import query
from ..storage.executor import ConstraintViolation, Executor
from ..storage.params import VectorParam
from ..text.keys import canonical_key
from . import caps
from .aggregate import EVIDENCE_KEEP, EVIDENCE_SEP, EVIDENCE_SPILL_AT, batch_params, chains
from .validate import Prepared

log = logging.getLogger("falkmem.ingest")


class _Extractor(Protocol):
    def extract(self, text: str, *, known: Any = None, speaker: str | None = None) -> Extraction: ...


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    added: tuple[str, ...]
    skipped: tuple[str, ...]
    entity_keys: tuple[tuple[str, str], ...]
    """(key, name) of every entity written, for the tenant's known-entity index."""
    stamps: tuple[int, ...] = ()
    """The tenant's entity stamp after each create query, in order (``Engine.note_entities``)."""


def given_extraction(p: Prepared) -> Extraction:
    """The entities and triples a caller supplied, taken as given.

    A triple's relation is mapped onto the fixed vocabulary (its original wording is kept
    as the edge's ``label``); a passive predicate ("was built by") turns the edge round.
    """
    entities: list[EntityMention] = []
    for name, etype in p.entities:
        entities.append(
            EntityMention(
                key=canonical_key(name, field="entities"),
                name=name,
                type=cast(EntityType, etype if etype in ENTITY_TYPES else "other"),
            )
        )
    triples: list[Triple] = []
    for s, r, o in p.triples:
        relation, swap = normalize_relation(r)
        sk, ok = canonical_key(s, field="triples"), canonical_key(o, field="triples")
        sn, on = s, o
        if swap:
            sk, ok, sn, on = ok, sk, on, sn
        if sk == ok:
            continue
        entities.append(EntityMention(key=sk, name=sn))
        entities.append(EntityMention(key=ok, name=on))
        triples.append(Triple(subject=sk, relation=relation, object=ok, label=None if r == relation else r))
    return Extraction(entities=tuple(entities), triples=tuple(triples))


def _row(p: Prepared, vector: Sequence[float], ex: Extraction, attribution: str) -> dict[str, Any]:
    names = {e.key: e.name for e in ex.entities}
    head = head_text(p.text, p.kind)
    n_tokens, stems = stem_bag(p.text, attribution)  # what the keyword channel's BM25 reads
    return {
        "id": p.id,
        "text": p.text,
        "kind": p.kind,
        "embedding": VectorParam(vector, digits=8),  # 8 digits: float32 precision, half the bytes
        "session": p.session,
        "speaker": p.speaker,
        "agent": p.agent,
        "user": p.user,
        "key": p.key,
        "fact_hash": None,
        "source": None,
        "valid_at": p.valid_at,
        "metadata": p.metadata,
        "meta_kv": metadata_pairs(p.metadata),  # what metadata filters match (retrieval/filters.py)
        "attribution": attribution,
        "n_tokens": n_tokens,
        "stems": stems,
        "entities": [
            {"key": e.key, "name": e.name, "type": e.type, "head": in_head(e, head)} for e in ex.entities
        ],
        "triples": [
            {
                "subject": t.subject,
                "subject_name": names.get(t.subject, t.subject),
                "relation": t.relation,
                "object": t.object,
                "object_name": names.get(t.object, t.object),
                "weight": float(t.weight),
                "label": t.label,
            }
            for t in ex.triples
        ],
    }


_WRITE_SEQ = itertools.count(1)
"""Write sequence stored on each artifact (``seq``): it orders the versions of one key that
share ``valid_at`` and ``created_at`` (one ``add_many`` call) by the order they were given."""


@dataclass(frozen=True, slots=True)
class _Embedded:
    """A batch after its first stage: deduplicated, existing ids skipped, vectors computed."""

    todo: tuple[Prepared, ...]
    vectors: dict[str, list[float]]
    skipped: tuple[str, ...]


def _embed_stage(
    executor: Executor, graph: str, batch: Sequence[Prepared], *, embedder: Embedder, dimension: int
) -> _Embedded:
    """Drop repeated and existing ids, check supplied vectors, embed the rest (one call)."""
    seen: set[str] = set()
    unique: list[Prepared] = []
    skipped: list[str] = []
    for p in batch:
        if p.id in seen:
            skipped.append(p.id)
        else:
            seen.add(p.id)
            unique.append(p)
    for p in unique:
        if p.embedding is not None and len(p.embedding) != dimension:
            raise DimensionMismatch(
                "embedding", f"record {p.id!r} has {len(p.embedding)} values; this tenant stores {dimension}"
            )
    existing = _existing(executor, graph, [p.id for p in unique])
    todo = [p for p in unique if p.id not in existing]
    skipped.extend(p.id for p in unique if p.id in existing)
    need = [p for p in todo if p.embedding is None]
    computed = iter(embed_checked(embedder, [p.text for p in need], dimension=dimension))
    vectors = {p.id: (list(p.embedding) if p.embedding is not None else next(computed)) for p in todo}
    return _Embedded(tuple(todo), vectors, tuple(skipped))


@dataclass(frozen=True, slots=True)
class _Planned:
    """A batch after extraction: its rows, ready to write."""

    rows: tuple[dict[str, Any], ...]
    skipped: tuple[str, ...]
    keys: tuple[tuple[str, str], ...]
    """(key, name) of every entity the rows reference, in order (the known-entity index's)."""


def _plan_stage(
    embedded: _Embedded,
    *,
    extractor: _Extractor | None,
    known: Any,
    attribution: Any,
    key_policy: KeyPolicy | None,
) -> _Planned:
    """Extract and build the rows of one batch (client work only: nothing is sent)."""
    rows: list[dict[str, Any]] = []
    keys: list[tuple[str, str]] = []
    if not embedded.todo:
        return _Planned((), embedded.skipped, ())
    extractions = [given_extraction(p) for p in embedded.todo]
    if extractor is not None:
        extractions = [
            ex.merge(extractor.extract(p.text, known=known, speaker=p.speaker))
            for p, ex in zip(embedded.todo, extractions, strict=True)
        ]
        extractions = shared_identifiers(embedded.todo, extractions)
    for p, ex in zip(embedded.todo, extractions, strict=True):
        attr = attribution(p) if attribution is not None else " ".join(x for x in (p.speaker, p.user) if x)
        row = _row(p, embedded.vectors[p.id], ex, attr)
        _set_key(row, p, ex, key_policy)
        caps.enforce(row, p)  # every indexed string bounded, whatever the extractor (issue 15)
        row["seq"] = next(_WRITE_SEQ)
        rows.append(row)
        keys.extend((e["key"], e["name"]) for e in row["entities"])
    return _Planned(tuple(rows), embedded.skipped, tuple(keys))


def _commit_stage(executor: Executor, graph: str, planned: _Planned, *, now: float) -> WriteOutcome:
    """Write one planned batch: one atomic create query (keyed versions of one key aside, which
    go in separate rounds)."""
    skipped = list(planned.skipped)
    added: list[str] = []
    stamps: list[int] = []
    for chunk in rounds(planned.rows):  # a key's versions go in separate queries (see create_artifacts)
        created, stamp = _create(executor, graph, chunk, now=now, skipped=skipped)
        added.extend(created)
        if stamp is not None:
            stamps.append(stamp)
        made = set(created)
        restated = [r for r in chunk if r["id"] not in made and r["id"] not in skipped]
        skipped.extend(_restated(executor, graph, restated))
    return WriteOutcome(tuple(added), tuple(skipped), planned.keys, tuple(stamps))


def _write_stage(
    executor: Executor,
    graph: str,
    embedded: _Embedded,
    *,
    now: float,
    extractor: _Extractor | None,
    known: Any,
    attribution: Any,
    key_policy: KeyPolicy | None,
) -> WriteOutcome:
    """Extract, build the rows and write them (:func:`_plan_stage`, then :func:`_commit_stage`)."""
    planned = _plan_stage(
        embedded, extractor=extractor, known=known, attribution=attribution, key_policy=key_policy
    )
    return _commit_stage(executor, graph, planned, now=now)


IDENTIFIER_TYPES: frozenset[str] = frozenset({"identifier", "email"})
"""Entity types another memory of the same batch is searched for (see :func:`shared_identifiers`)."""


def shared_identifiers(batch: Sequence[Prepared], extractions: Sequence[Extraction]) -> list[Extraction]:
    """Each extraction plus the identifiers other memories of the batch name that its text holds.

    The extractor finds the tenant's known entities again in a new text ("TP 1351 is delayed"
    after "Booked flight TP 1351" was written), but the memories of one batch are extracted
    before any of them is known: a flight number read with its cue word ("flight TP 1351") in
    one turn was missed in the next turn of the same batch. Only identifiers and emails are
    added (what the links channel follows between memories), as plain mentions, never relations.
    """
    found = {e.key: e for ex in extractions for e in ex.entities if e.type in IDENTIFIER_TYPES}
    if not found:
        return list(extractions)
    index = KnownEntities((k, e.name) for k, e in found.items())
    out: list[Extraction] = []
    for p, ex in zip(batch, extractions, strict=True):
        have = {e.key for e in ex.entities}
        extra = tuple(
            EntityMention(key=found[m.key].key, name=found[m.key].name, type=found[m.key].type)
            for m in index.find(p.text)
            if m.key not in have and m.key in found
        )
        out.append(ex.merge(Extraction(entities=extra)) if extra else ex)
    return out


def write_batch(
    executor: Executor,
    graph: str,
    batch: Sequence[Prepared],
    *,
    embedder: Embedder,
    dimension: int,
    now: float,
    extractor: _Extractor | None = None,
    known: Any = None,
    attribution: Any = None,
    key_policy: KeyPolicy | None = None,
) -> WriteOutcome:
    """Write one batch atomically; ids that exist already (or repeat in the batch) are skipped.

    Raises:
        DimensionMismatch: a supplied or computed embedding has the wrong dimension.
        InputError, EmbeddingError, StorageError: nothing of the batch was written.
    """
    embedded = _embed_stage(executor, graph, batch, embedder=embedder, dimension=dimension)
    return _write_stage(
        executor, graph, embedded,
        now=now, extractor=extractor, known=known, attribution=attribution, key_policy=key_policy,
    )  # fmt: skip


def write_batches(
    executor: Executor,
    graph: str,
    batches: Sequence[Sequence[Prepared]],
    *,
    embedder: Embedder,
    dimension: int,
    now: float,
    extractor: _Extractor | None = None,
    known: Any = None,
    attribution: Any = None,
    key_policy: KeyPolicy | None = None,
    on_planned: Callable[[int, tuple[tuple[str, str], ...]], None] | None = None,
    on_written: Callable[[int, WriteOutcome], None] | None = None,
) -> list[WriteOutcome]:
    """Write many batches at the pace of the slowest stage: batch N+1 is embedded, then
    extracted, while batch N is written.

    A bounded three-stage pipeline. One worker thread embeds at most one batch ahead (checking
    which ids exist first, so a rerun embeds nothing twice); this thread extracts each batch
    and builds its rows; a second worker sends the write query of the batch before (one atomic
    query each, in order). The embedder and the server run outside the GIL, so on two cores
    the client's extraction overlaps the server's write. Extraction of batch N+1 must see the
    entities batch N names (as if N were written first): ``on_planned(index, keys)`` is told
    them as soon as N is extracted, before its write, and ``on_written(index, outcome)`` after
    its write, in order. Each batch stays atomic and idempotent as with :func:`write_batch`; an
    id repeated in a later batch is found by the unique constraint when its batch is written,
    and skipped.

    Raises:
        The first error of a batch, after the batches before it were written and told; nothing
        of the failing batch is written, and no batch after it (a batch extracted ahead of the
        failure is dropped). Entities told by ``on_planned`` for a batch that was not written
        are the caller's to forget.
    """
    outcomes: list[WriteOutcome] = []
    if not batches:
        return outcomes

    def embed(i: int) -> _Embedded:
        return _embed_stage(executor, graph, batches[i], embedder=embedder, dimension=dimension)

    def commit(planned: _Planned) -> WriteOutcome:
        return _commit_stage(executor, graph, planned, now=now)

    def settle(i: int, fut: Future[WriteOutcome]) -> None:
        out = fut.result()
        outcomes.append(out)
        if on_written is not None:
            on_written(i, out)

    with (
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="falkmem-embed") as embed_pool,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="falkmem-write") as write_pool,
    ):
        ahead: Future[_Embedded] = embed_pool.submit(embed, 0)
        writing: tuple[int, Future[WriteOutcome]] | None = None
        try:
            for i in range(len(batches)):
                embedded = ahead.result()
                if i + 1 < len(batches):
                    ahead = embed_pool.submit(embed, i + 1)
                try:
                    planned = _plan_stage(
                        embedded,
                        extractor=extractor,
                        known=known,
                        attribution=attribution,
                        key_policy=key_policy,
                    )
                except BaseException:
                    if writing is not None:  # the batch before is written (or fails) first
                        settle(*writing)
                        writing = None
                    raise
                if on_planned is not None:
                    on_planned(i, planned.keys)
                if writing is not None:
                    settle(*writing)
                    writing = None
                writing = (i, write_pool.submit(commit, planned))
            if writing is not None:
                settle(*writing)
                writing = None
        finally:
            ahead.cancel()  # not started yet: never runs; running: awaited by the pool's exit
            if writing is not None:
                writing[1].cancel()
    return outcomes


def _set_key(row: dict[str, Any], p: Prepared, ex: Extraction, policy: KeyPolicy | None) -> None:
    """The row's fact key (the caller's, normalised, or one derived) and its value hash."""
    if p.key is not None:
        row["key"], row["fact_hash"] = normalise_key(p.key), fact_hash(p.text)
        return
    derived = derive_key(ex, p.kind, policy) if policy is not None else None
    row["key"], row["fact_hash"] = (derived[0], fact_hash(derived[1])) if derived else (None, None)


def _create(
    executor: Executor, graph: str, rows: list[dict[str, Any]], *, now: float, skipped: list[str]
) -> tuple[list[str], int | None]:
    """Run one create query; the ids it created (ids a concurrent writer created are skipped)
    and the tenant's entity stamp after it (None when nothing ran).

    Rows without a fact key go through ``ingest/create_batch`` (the batch's writes aggregated:
    :mod:`.aggregate`); a chunk that holds a keyed row through ``ingest/create_artifacts``
    (a restatement must write nothing, decided in the query)."""
    for attempt in range(2):
        try:
            if any(r.get("key") is not None for r in rows):
                params: dict[str, Any] = {
                    "rows": rows, "now": now, "chains": chains(rows),
                    "spill_at": EVIDENCE_SPILL_AT, "keep": EVIDENCE_KEEP, "sep": EVIDENCE_SEP,
                }  # fmt: skip
                out = executor.run(graph, query("ingest/create_artifacts"), params)
            else:
                out = executor.run(graph, query("ingest/create_batch"), {**batch_params(rows), "now": now})
            if not out:
                return [], None
            stamp = out[0].get("stamp")
            return [str(i) for i in out[0]["ids"]], int(stamp) if stamp is not None else None
        except ConstraintViolation:
            # A concurrent writer (or a retried call) created some of these ids: skip them.
            if attempt:
                raise
            existing = _existing(executor, graph, [r["id"] for r in rows])
            skipped.extend(r["id"] for r in rows if r["id"] in existing)
            rows = [r for r in rows if r["id"] not in existing]
            if not rows:
                break
    return [], None


def _restated(executor: Executor, graph: str, rows: list[dict[str, Any]]) -> list[str]:
    """Ids of the existing facts that keyed rows restated (the write created nothing for them)."""
    if not rows:
        return []
    found = executor.run(
        graph, query("evolve/key_versions_at"),
        {"pairs": [{"key": r["key"], "valid_at": r["valid_at"]} for r in rows]},
    )  # fmt: skip
    by_key = {str(f["key"]): str(f["id"]) for f in found}
    return [by_key.get(r["key"], r["id"]) for r in rows]


def _existing(executor: Executor, graph: str, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    rows = executor.run(graph, query("ingest/existing_ids"), {"ids": ids})
    return {str(r["id"]) for r in rows}


__all__ = [
    "InputError", "WriteOutcome", "chains", "given_extraction", "shared_identifiers", "write_batch", "write_batches",
]  # fmt: skip
