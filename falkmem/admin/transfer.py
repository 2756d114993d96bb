"""Export and import of one tenant as JSONL: lossless, streamed, one atomic query per batch.

The format (``docs/cli.md`` describes it line by line): a ``header`` line, then ``entity``,
``session``, ``user`` and ``agent`` node lines, then ``artifact`` lines (each with its
embedding and its REFERENCES/CONTAINS/PRODUCED links), then ``edge`` lines (RELATED_TO,
HAS_SESSION, SUPERSEDES), then an ``end`` line with the counts (a truncated file is refused).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..errors import DimensionMismatch, FalkmemError, InputError, StorageError, TenantExists
from ..ingest import caps
from ..ingest.aggregate import evidence_ids
from ..memory import Memory
from ..storage.backfill import fill_evidence, fill_next, fill_stems, fill_terms
from ..storage.cypher import query
from ..tenancy.ids import validate_tenant_id
from .exportfile import (
    DERIVED_LABELS,
    EDGE_TYPES,
    FORMAT,
    FORMAT_VERSION,
    KNOWN_EDGES,
    KNOWN_LABELS,
    NODE_TYPES,
)
from .exportfile import read_export as read_export

log = logging.getLogger("falkmem.admin")

PAGE = 500
"""Rows per export page and per import batch (artifacts: a fifth of it, they carry vectors)."""


class ExportError(FalkmemError):
    """The tenant holds data the export format does not know, so an export would lose it."""


@dataclass(slots=True)
class ImportReport:
    """What an import (or copy) wrote.

    Attributes:
        tenant: the target tenant.
        counts: lines written per type (``entity``, ``artifact``, ``RELATED_TO``...).
        seconds: wall time.
    """

    tenant: str
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _links(raw: Any) -> list[dict[str, Any]]:
    """Link maps with their properties as a dict (an edge without properties comes back null)."""
    return [{**_plain(x), "props": _plain(x.get("props")) or {}} for x in raw or []]


def _census(mem: Memory, graph: str) -> tuple[dict[str, int], dict[str, int]]:
    ex = mem.admin.executor
    labels = {str(r["label"]): int(r["n"]) for r in ex.run(graph, query("admin/count_labels"))}
    edges = {str(r["type"]): int(r["n"]) for r in ex.run(graph, query("admin/count_edge_types"))}
    return labels, edges


def _pages(mem: Memory, graph: str, name: str, page: int) -> Iterator[list[dict[str, Any]]]:
    """Every row of an ``admin/export_*`` query, a page at a time, keyset-paged by internal node id.

    Not by the ``id``/``key`` property: a range scan of FalkorDB's index on a string property
    skips values (``a.id > 'x_BOh…:0'`` passed over ``'x_BOh…:1'`` … ``'x_Bg3…:1'``; FalkorDB
    #2239, #294), which lost 5 of 459 memories of a LongMemEval tenant and can loop for ever.
    """
    ex = mem.admin.executor
    after = -1
    while True:
        rows = ex.run(graph, query(f"admin/{name}"), {"after": after, "limit": page})
        if not rows:
            return
        yield rows
        if len(rows) < page:
            return
        after = max(int(r["cursor"]) for r in rows)


def export_tenant(mem: Memory, tenant_id: str, *, page: int = PAGE) -> Iterator[dict[str, Any]]:
    """Stream a tenant as export lines (dicts; ``json.dumps`` each one onto its own line).

    Raises:
        TenantNotFound: the tenant does not exist.
        ExportError: the graph holds labels or edge types the format does not cover.
    """
    store = mem.admin.store
    validate_tenant_id(tenant_id)
    meta = store.meta(tenant_id)
    graph = store.graph(tenant_id)
    labels, edges = _census(mem, graph)
    unknown = sorted(set(labels) - KNOWN_LABELS) + sorted(set(edges) - KNOWN_EDGES)
    if unknown:
        raise ExportError(
            f"tenant {tenant_id!r} holds {unknown}, which this falkmem's export format does not"
            " cover; upgrade falkmem before exporting"
        )
    yield {
        "type": "header", "format": FORMAT, "version": FORMAT_VERSION, "tenant": tenant_id,
        "dimension": meta.dimension, "embedder": meta.embedder, "schema_version": meta.schema_version,
        "exported_at": datetime.now(UTC).isoformat(),
    }  # fmt: skip
    counts: dict[str, int] = {}
    for kind, (_, _key, plural) in NODE_TYPES.items():
        for rows in _pages(mem, graph, f"export_{plural}", page):
            for r in rows:
                counts[kind] = counts.get(kind, 0) + 1
                yield {"type": kind, "props": _plain(r["props"])}
    for rows in _pages(mem, graph, "export_artifacts", max(1, page // 5)):
        for r in rows:
            props = _plain(r["props"])
            embedding = props.pop("embedding", None)
            counts["artifact"] = counts.get("artifact", 0) + 1
            yield {
                "type": "artifact", "props": props, "embedding": embedding,
                "references": _links(r["references"]), "sessions": _links(r["sessions"]),
                "agents": _links(r["agents"]),
            }  # fmt: skip
    for rel, (suffix, _, _) in EDGE_TYPES.items():
        for rows in _pages(mem, graph, f"export_{suffix}", page):
            for r in rows:
                for e in r["edges"]:
                    if e.get("dst") is None:
                        continue
                    counts[rel] = counts.get(rel, 0) + 1
                    props = _plain(e["props"]) or {}
                    if rel == "RELATED_TO" and ("evidence" in props or "evidence_old" in props):
                        # the file keeps the stating memories as one list (the format since v1)
                        ids = evidence_ids(props)
                        props = {k: v for k, v in props.items() if k not in ("evidence", "evidence_old")}
                        props["artifact_ids"] = ids
                    yield {"type": "edge", "rel": rel, "src": r["key"], "dst": e["dst"], "props": props}
    yield {"type": "end", "counts": counts}
    log.debug("exported tenant=%s lines=%d", tenant_id, sum(counts.values()))


def import_lines(
    mem: Memory, tenant_id: str, items: Iterable[dict[str, Any]], *, page: int = PAGE
) -> ImportReport:
    """Write export lines into a new (or empty) tenant, one atomic query per batch.

    The tenant is created first with the header's dimension and embedder (the SDK's own
    ``Store.ensure``: metadata, migrations, indexes). If any batch fails, the tenant is
    dropped again, so an import leaves all of the data or none of it.

    Raises:
        TenantExists: the target holds data already.
        DimensionMismatch: an embedding does not have the header's dimension.
        InputError: the first line is not a header.
        StorageError: the store failed (the partial tenant was removed).
    """
    validate_tenant_id(tenant_id)
    admin = mem.admin
    store = admin.store
    started = time.perf_counter()
    it = iter(items)
    header = next(it, None)
    if not isinstance(header, dict) or header.get("type") != "header":
        raise InputError("header", "the first line must be the export header")
    existed = store.exists(tenant_id)
    if existed:
        labels, _ = _census(mem, store.graph(tenant_id))
        if set(labels) - DERIVED_LABELS:
            raise TenantExists(
                f"tenant {tenant_id!r} holds data; import into a new tenant (or drop it first)"
            )
    dimension = int(header["dimension"])
    meta = store.ensure(tenant_id, dimension=dimension, embedder=str(header["embedder"]))
    if meta.dimension != dimension:
        raise DimensionMismatch(
            "dimension", f"tenant {tenant_id!r} stores {meta.dimension}; the file has {dimension}"
        )
    report = ImportReport(tenant=tenant_id)
    try:
        _write_all(mem, tenant_id, it, dimension, report, page)
        # What create_artifacts maintains and an import bypasses: stem counts for artifacts
        # exported before schema 11 and the turn order of sessions exported before schema 12
        # (the migrations' own backfills; no-ops for newer files), and the BM25 corpus statistics:
        # document frequencies (migration 14's count) and the corpus size and length; and the
        # edges' evidence, a list in the file, packed into strings (migration 16's step).
        fill_stems(admin.executor, admin.graph(tenant_id))
        fill_next(admin.executor, admin.graph(tenant_id))
        fill_terms(admin.executor, admin.graph(tenant_id))
        fill_evidence(admin.executor, admin.graph(tenant_id))  # the file's lists, as the graph keeps them
        admin.executor.run(admin.graph(tenant_id), query("admin/recount_keyword_stats"))
    except BaseException:
        store.drop(tenant_id)
        if existed:
            store.ensure(tenant_id, dimension=dimension, embedder=str(header["embedder"]))
        raise
    finally:
        admin.forget_tenant(tenant_id)
    report.seconds = time.perf_counter() - started
    log.debug("imported tenant=%s counts=%s", tenant_id, report.counts)
    return report


def _write_all(
    mem: Memory, tenant_id: str, it: Iterator[dict[str, Any]], dimension: int, report: ImportReport, page: int
) -> None:
    ex = mem.admin.executor
    graph = mem.admin.graph(tenant_id)
    batch: list[dict[str, Any]] = []
    current: tuple[str, str] | None = None  # (counter name, query name)

    def flush() -> None:
        if not batch or current is None:
            return
        rows = ex.run(graph, query(f"admin/{current[1]}"), {"rows": batch})
        created = int(rows[0]["created"]) if rows else 0
        if created != len(batch):
            raise StorageError(
                f"import into {graph}: {current[0]} batch wrote {created} of {len(batch)} rows"
            )
        report.counts[current[0]] = report.counts.get(current[0], 0) + created
        batch.clear()

    for obj in it:
        kind = obj.get("type")
        if kind == "end":
            break
        if kind in NODE_TYPES:
            _, key, plural = NODE_TYPES[kind]
            target = (kind, f"import_{plural}")
            check = caps.require_unique if kind == "entity" else caps.require  # Entity.key is unique
            check(f"{kind}.{key}", obj["props"][key], f"an imported {kind} {key}")
            row: dict[str, Any] = {key: obj["props"][key], "props": obj["props"]}
            size = page
        elif kind == "artifact":
            emb = obj.get("embedding")
            if emb is not None and len(emb) != dimension:
                raise DimensionMismatch(
                    "embedding", f"an artifact has {len(emb)} values; the tenant stores {dimension}"
                )
            target = ("artifact", "import_artifacts")
            props = {k: v for k, v in obj["props"].items() if k != "embedding"}
            caps.require_unique("artifact.id", props["id"], "an imported artifact id")
            row = {
                "id": props["id"], "props": props, "embedding": emb, "references": obj.get("references") or [],
                "sessions": obj.get("sessions") or [], "agents": obj.get("agents") or [],
            }  # fmt: skip
            size = max(1, page // 5)
        elif kind == "edge":
            target = (str(obj["rel"]), f"import_{EDGE_TYPES[str(obj['rel'])][0]}")
            row = {"src": obj["src"], "dst": obj["dst"], "props": obj.get("props") or {}}
            size = page
        else:
            raise InputError("type", f"unexpected line type {kind!r} in an export stream")
        if target != current:
            flush()
            current = target
        batch.append(row)
        if len(batch) >= size:
            flush()
    flush()


def copy_tenant(mem: Memory, src: str, dst: str, *, page: int = PAGE) -> ImportReport:
    """Copy a tenant by streaming its export into an import (works across cluster shards).

    Raises:
        TenantNotFound: the source does not exist.
        TenantExists: the target holds data.
    """
    validate_tenant_id(dst)
    if src == dst:
        raise InputError("dst", "must differ from the source tenant")
    return import_lines(mem, dst, export_tenant(mem, src, page=page), page=page)
