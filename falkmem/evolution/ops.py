"""The evolution operations behind ``Tenant``: history, forget, maintain, consolidate, health, reconcile."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..context.pack import ContextItem
from ..errors import InputError, NotFound
from ..ingest.validate import to_timestamp, valid_unicode
from ..models import (
    ConsolidateResult,
    ForgetResult,
    HealthReport,
    History,
    Hit,
    Hub,
    MaintainResult,
    ReconcileDecision,
    ReconcileResult,
)
from ..storage.cypher import query
from ..text.keys import canonical_key
from .classifier import Classifier
from .consolidate import Candidate, duplicate_pairs, group
from .forget import erase_ids, forget, selector
from .history import entries
from .keys import normalise_key

if TYPE_CHECKING:
    from ..engine import Engine

log = logging.getLogger("falkmem.evolution")

__all__ = [
    "as_of_timestamp", "consolidate", "forget_memories", "health", "history", "history_items",
    "maintain", "reconcile",
]  # fmt: skip

_HISTORY_MAX = 1000
_CONTEXT_KEYS = 10
_CONTEXT_VERSIONS = 10
_RECONCILE_MAX_K = 20


def as_of_timestamp(value: datetime | str | None, field: str = "as_of") -> float | None:
    """Epoch seconds of a point in time (naive = UTC), or None.

    Raises:
        InputError: naming ``field`` when it is not a datetime or an ISO-8601 string.
    """
    if value is None:
        return None
    return to_timestamp(value, field, default=0.0)


def history_items(eng: Engine, tenant_id: str, hits: Sequence[Hit]) -> list[ContextItem]:
    """Earlier versions of the keyed facts among ``hits``, as superseded context items.

    Bounded: the first ``_CONTEXT_KEYS`` keys, ``_CONTEXT_VERSIONS`` versions each. Each text
    is prefixed with when it stopped being true, so a reader can tell old from current.
    """
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    seen = {h.id for h in hits}
    keys = list(dict.fromkeys(h.key for h in hits if h.key))[:_CONTEXT_KEYS]
    out: list[ContextItem] = []
    for h in hits:
        if h.key not in keys:
            continue
        keys.remove(h.key)
        rows = ex.run(graph, query("evolve/history_by_key"), {"key": h.key, "limit": _CONTEXT_VERSIONS})
        for e in entries(rows):
            if e.id in seen or e.status != "superseded":
                continue
            seen.add(e.id)
            until = e.invalid_at.strftime("%Y-%m-%d %H:%M") if e.invalid_at else "?"
            out.append(
                ContextItem(
                    id=e.id,
                    text=f"(superseded {until}) {e.text}",
                    score=h.score * 0.5,
                    session=e.session,
                    at=e.valid_at,
                    kind=e.kind,
                    superseded=True,
                )
            )
    return out


def history(eng: Engine, tenant_id: str, key: str | None, entity: str | None, limit: int) -> History:
    """See ``Tenant.history``."""
    if (key is None) == (entity is None):
        raise InputError("history", "give exactly one of key or entity=...")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= _HISTORY_MAX:
        raise InputError("limit", f"must be an integer between 1 and {_HISTORY_MAX}")
    eng.store.meta(tenant_id)
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    if key is not None:
        if not isinstance(key, str):
            raise InputError("key", "must be a string")
        k = normalise_key(valid_unicode(key, "key"))
        rows = ex.run(graph, query("evolve/history_by_key"), {"key": k, "limit": limit})
        if not rows:
            raise NotFound(f"tenant {tenant_id!r} has no fact with this key; check history(key=...)")
        return History(key=k, entries=entries(rows))
    if not isinstance(entity, str):
        raise InputError("entity", "must be a string")
    ek = canonical_key(valid_unicode(entity, "entity"), field="entity")
    rows = ex.run(graph, query("evolve/history_by_entity"), {"key": ek, "limit": limit})
    if not rows:
        raise NotFound(f"tenant {tenant_id!r} knows no such entity; names are matched by canonical key")
    return History(entity=ek, entries=entries(rows))


def _discard(eng: Engine, tenant_id: str, keys: list[str]) -> None:
    eng.discard_entities(tenant_id, keys)


def forget_memories(eng: Engine, tenant_id: str, id: object, session: object, user: object) -> ForgetResult:
    """See ``Tenant.forget``."""
    sel = selector(id, session, user)
    eng.store.meta(tenant_id)
    result = forget(
        eng.store.executor, eng.store.graph(tenant_id), sel, page=eng.settings.forget_page,
        on_removed_entities=lambda keys: _discard(eng, tenant_id, keys),
    )  # fmt: skip
    log.info(
        "forget tenant=%s artifacts=%d entities=%d", tenant_id, result.artifacts, result.entities_removed
    )
    return result


def maintain(eng: Engine, tenant_id: str, now: float | None) -> MaintainResult:
    """See ``Tenant.maintain``."""
    s = eng.settings
    eng.store.meta(tenant_id)
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    t = time.time() if now is None else now
    expired: dict[str, int] = {}
    total = ForgetResult()
    for kind, days in sorted(s.retention_days.items()):
        cutoff = t - float(days) * 86_400.0
        n = 0
        while True:
            ids = [
                str(r["id"])
                for r in ex.run(
                    graph,
                    query("evolve/select_expired"),
                    {"kind": kind, "cutoff": cutoff, "limit": s.forget_page},
                )
            ]
            if not ids:
                break
            result, removed = erase_ids(ex, graph, ids)
            _discard(eng, tenant_id, removed)
            total = total + result
            n += result.artifacts
            if result.artifacts == 0:
                break
        if n:
            expired[kind] = n
    orphans = ex.run(graph, query("evolve/prune_orphans"), {"limit": 100_000})
    removed_keys = [str(k) for k in (orphans[0]["removed"] if orphans else [])]
    _discard(eng, tenant_id, removed_keys)
    sessions = ex.run(graph, query("evolve/prune_empty_sessions"), {"limit": 100_000})
    return MaintainResult(
        expired=expired, forgotten=total, orphan_entities_removed=len(removed_keys),
        empty_sessions_removed=int(sessions[0]["removed"]) if sessions else 0,
    )  # fmt: skip


def _scan(eng: Engine, tenant_id: str) -> tuple[list[Candidate], bool]:
    limit = eng.settings.consolidate_max
    rows = eng.store.executor.run(
        eng.store.graph(tenant_id), query("evolve/scan_active"), {"limit": limit + 1}
    )
    items = [
        Candidate(str(r["id"]), str(r["text"] or ""), r["embedding"])
        for r in rows[:limit]
        if r["embedding"] is not None
    ]
    return items, len(rows) > limit


def _threshold(eng: Engine, threshold: float | None) -> float:
    th = eng.settings.consolidate_threshold if threshold is None else threshold
    if isinstance(th, bool) or not isinstance(th, int | float) or not 0 < th <= 1:
        raise InputError("threshold", "must be a number in (0, 1]")
    return float(th)


def consolidate(eng: Engine, tenant_id: str, threshold: float | None, dry_run: bool) -> ConsolidateResult:
    """See ``Tenant.consolidate``."""
    th = _threshold(eng, threshold)
    eng.store.meta(tenant_id)
    items, truncated = _scan(eng, tenant_id)
    pairs = duplicate_pairs(items, th)
    groups = group(len(items), pairs)
    best: dict[int, float] = {}
    for i, j, sim in pairs:
        best[j] = max(best.get(j, 0.0), sim)
        best[i] = max(best.get(i, 0.0), sim)
    links = [
        {"dup": items[d].id, "canonical": items[g[0]].id, "similarity": round(best.get(d, th), 6)}
        for g in groups
        for d in g[1:]
    ]
    linked = 0
    if links and not dry_run:
        out = eng.store.executor.run(
            eng.store.graph(tenant_id), query("evolve/link_duplicates"), {"pairs": links, "now": time.time()}
        )
        linked = int(out[0]["linked"]) if out else 0
    return ConsolidateResult(
        scanned=len(items), groups=tuple(tuple(items[i].id for i in g) for g in groups),
        linked=linked, threshold=th, truncated=truncated,
    )  # fmt: skip


def health(eng: Engine, tenant_id: str) -> HealthReport:
    """See ``Tenant.health``."""
    s = eng.settings
    eng.store.meta(tenant_id)
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    statuses = {str(r["status"]): int(r["n"]) for r in ex.run(graph, query("evolve/health_statuses"))}
    c = ex.run(graph, query("evolve/health_counts"))[0]
    hubs = tuple(
        Hub(
            key=str(h["key"]),
            name=str(h["name"] or h["key"]),
            degree=int(h["degree"]),
            references=int(h["references"]),
        )
        for h in ex.run(graph, query("evolve/health_hubs"), {"limit": s.health_hubs})
    )
    items, _ = _scan(eng, tenant_id)
    live = statuses.get("active", 0) + statuses.get("superseded", 0)
    nodes, entities = int(c["nodes"] or 0), int(c["entities"] or 0)
    return HealthReport(
        artifacts=statuses, entities=entities, orphan_entities=int(c["orphans"] or 0),
        related_edges=int(c["related"] or 0), edges=int(c["edges"] or 0), nodes=nodes,
        edges_per_node=round(int(c["edges"] or 0) / nodes, 4) if nodes else 0.0,
        related_per_entity=round(int(c["related"] or 0) / entities, 4) if entities else 0.0,
        superseded_ratio=round(statuses.get("superseded", 0) / live, 4) if live else 0.0,
        duplicate_candidates=len(duplicate_pairs(items, s.consolidate_threshold)), hubs=hubs,
    )  # fmt: skip


def reconcile(
    eng: Engine, tenant_id: str, id: str, classifier: Classifier, k: int, min_similarity: float
) -> ReconcileResult:
    """See ``Tenant.reconcile``."""
    from ..embedding.base import embed_checked
    from ..retrieval.vector import vector_search
    from ..storage.rows import hit_from_row

    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= _RECONCILE_MAX_K:
        raise InputError("k", f"must be an integer between 1 and {_RECONCILE_MAX_K}")
    th = _threshold(eng, min_similarity)
    meta = eng.store.meta(tenant_id)
    graph, ex = eng.store.graph(tenant_id), eng.store.executor
    rows = ex.run(graph, query("retrieve/get_artifacts"), {"ids": [id]})
    if not rows:
        raise NotFound(f"tenant {tenant_id!r} has no memory with id {id!r}")
    me = hit_from_row(rows[0]["a"], 1.0)
    if me.status != "active":
        return ReconcileResult(id=id, decisions=())
    [vec] = embed_checked(eng.embedder, [me.text], dimension=meta.dimension)
    near = vector_search(ex, graph, vec, k=k + 1, fetch_k=max(eng.settings.vector.overfetch_min, 4 * (k + 1)))
    decisions: list[ReconcileDecision] = []
    for row, sim in near:
        other = hit_from_row(row, sim)
        if other.id == id or sim < th or (other.key is not None and other.key == me.key):
            continue
        verdict = classifier.classify(other.text, me.text)
        action, winner = "none", None
        if verdict.relation != "unrelated":
            mine = me.valid_at.timestamp() if me.valid_at else 0.0
            theirs = other.valid_at.timestamp() if other.valid_at else 0.0
            new, old = (me.id, other.id) if mine >= theirs else (other.id, me.id)
            if verdict.relation == "duplicate":
                out = ex.run(graph, query("evolve/link_duplicates"), {
                    "pairs": [{"dup": new, "canonical": old, "similarity": round(sim, 6)}], "now": time.time(),
                })  # fmt: skip
                action, winner = ("linked_duplicate" if out and out[0]["linked"] else "none"), old
            else:
                out = ex.run(graph, query("evolve/supersede"), {
                    "new_id": new, "old_id": old, "reason": verdict.relation, "now": time.time(),
                })  # fmt: skip
                action, winner = ("superseded" if out else "none"), new
        decisions.append(
            ReconcileDecision(
                other=other.id,
                relation=verdict.relation,
                similarity=round(sim, 6),
                action=action,
                winner=winner,
            )
        )
        if winner is not None and winner != me.id:
            break  # this memory is retired: nothing more to reconcile it against
    return ReconcileResult(id=id, decisions=tuple(decisions))
