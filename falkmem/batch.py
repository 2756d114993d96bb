"""The batch and housekeeping calls behind ``Tenant``: get_many, delete_many, forget by filters,
paging with a cursor, and the one embedding call of ``search_many``."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .embedding.base import embed_checked
from .errors import InputError, LimitExceeded
from .evolution.forget import erase_ids
from .ingest.validate import valid_unicode
from .models import ForgetResult, Hit, MemoryPage
from .retrieval.filters import Filters, metadata_pairs
from .storage.cypher import query
from .storage.rows import hit_from_row, rows_by_id

if TYPE_CHECKING:
    from .engine import Engine

log = logging.getLogger("falkmem.batch")

__all__ = [
    "backfill_meta_kv", "check_ids", "delete_many", "embed_queries", "forget_filtered", "get_many", "list_page",
]  # fmt: skip

_ID_MAX = 256
_MAX_ROUNDS = 10_000  # pages: a bound, so a writer adding as fast as we erase cannot loop us forever
LIST_MAX = 1000


def check_ids(ids: object, *, max_n: int, field: str = "ids") -> list[str]:
    """Validate a list of memory ids (duplicates dropped, order kept).

    Raises:
        InputError: not a list of non-empty strings, or more than ``max_n``.
    """
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise InputError(field, "must be a list of memory ids")
    if len(ids) > max_n:
        raise LimitExceeded(field, f"at most {max_n} ids per call")
    for i, x in enumerate(ids):
        if not isinstance(x, str) or not x.strip() or len(x) > _ID_MAX:
            raise InputError(f"{field}[{i}]", f"must be a non-empty string of at most {_ID_MAX} characters")
        valid_unicode(x, f"{field}[{i}]")
    return list(dict.fromkeys(ids))


def get_many(eng: Engine, tenant_id: str, ids: object) -> list[Hit]:
    """See ``Tenant.get_many``."""
    wanted = check_ids(ids, max_n=eng.settings.max_batch)
    eng.store.meta(tenant_id)
    if not wanted:
        return []
    found = rows_by_id(eng.store.executor, eng.store.graph(tenant_id), wanted)
    return [hit_from_row(found[i], 1.0) for i in wanted if i in found]


def _erase_pages(eng: Engine, tenant_id: str, pages: Any) -> ForgetResult:
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    total = ForgetResult()
    for _ in range(_MAX_ROUNDS):
        ids = pages()
        if not ids:
            break
        result, removed = erase_ids(ex, graph, ids)
        total = total + result
        if removed:
            eng.discard_entities(tenant_id, removed)
        if result.artifacts == 0:
            break
    return total


def delete_many(eng: Engine, tenant_id: str, ids: object) -> ForgetResult:
    """See ``Tenant.delete_many``."""
    wanted = check_ids(ids, max_n=eng.settings.max_batch)
    eng.store.meta(tenant_id)
    page = eng.settings.forget_page
    chunks = [wanted[i : i + page] for i in range(0, len(wanted), page)]
    total = _erase_pages(eng, tenant_id, lambda: chunks.pop(0) if chunks else [])
    log.info("delete_many tenant=%s artifacts=%d", tenant_id, total.artifacts)
    return total


def forget_filtered(eng: Engine, tenant_id: str, filters: Filters) -> ForgetResult:
    """Erase every memory (any status) that matches ``filters``, one atomic page at a time."""
    eng.store.meta(tenant_id)
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    params = {"limit": eng.settings.forget_page, **filters.params()}

    def select() -> list[str]:
        return [str(r["id"]) for r in ex.run(graph, query("evolve/select_by_filters"), params)]

    total = _erase_pages(eng, tenant_id, select)
    log.info("forget tenant=%s artifacts=%d (filters)", tenant_id, total.artifacts)
    return total


def _cursor(value: str | None) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    try:
        created, last = json.loads(base64.urlsafe_b64decode(value.encode("ascii")))
        return float(created), str(last)
    except (ValueError, TypeError, UnicodeError):
        raise InputError("cursor", "must be a next_cursor returned by list(); start without one") from None


def _encode(created: Any, last: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([created, last]).encode()).decode("ascii")


def list_page(
    eng: Engine,
    tenant_id: str,
    filters: Filters | None,
    *,
    cursor: str | None,
    limit: int,
    include_history: bool,
) -> MemoryPage:
    """See ``Tenant.list``."""
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= LIST_MAX:
        raise LimitExceeded("limit", f"must be an integer between 1 and {LIST_MAX}")
    if cursor is not None and not isinstance(cursor, str):
        raise InputError("cursor", "must be a next_cursor returned by list()")
    after_created, after_id = _cursor(cursor)
    eng.store.meta(tenant_id)
    rows = eng.store.executor.run(
        eng.store.graph(tenant_id), query("retrieve/list_page"),
        {"after_created": after_created, "after_id": after_id, "limit": limit + 1,
         "history": bool(include_history), **(filters or Filters()).params()},
    )  # fmt: skip
    items = [r["a"] for r in rows]
    more = len(items) > limit
    items = items[:limit]
    nxt = _encode(items[-1]["created_at"], str(items[-1]["id"])) if more and items else None
    return MemoryPage(items=tuple(hit_from_row(a, 1.0) for a in items), next_cursor=nxt)


def embed_queries(eng: Engine, tenant_id: str, texts: Sequence[str]) -> list[list[float]]:
    """All the query embeddings of ``search_many`` in one embedder call."""
    meta = eng.store.meta(tenant_id)
    return embed_checked(eng.embedder, list(texts), dimension=meta.dimension)


def backfill_meta_kv(eng: Engine, tenant_id: str, *, page: int = 1000) -> int:
    """Give memories written before metadata filters existed their ``meta_kv`` (so a
    ``metadata=`` filter finds them); returns how many were updated. Idempotent."""
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    done = 0
    for _ in range(_MAX_ROUNDS):
        rows = ex.run(graph, query("evolve/missing_meta_kv"), {"limit": page})
        if not rows:
            break
        todo = [{"id": str(r["id"]), "kv": metadata_pairs(r["metadata"]) or []} for r in rows]
        ex.run(graph, query("evolve/set_meta_kv"), {"rows": todo})
        done += len(todo)
        if len(rows) < page:
            break
    if done:
        log.info("backfill meta_kv tenant=%s artifacts=%d", tenant_id, done)
    return done
