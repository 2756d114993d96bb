"""``FalkmemStore`` / ``AsyncFalkmemStore``: LangGraph ``BaseStore``s on one falkmem tenant.

How an item is stored (docs/langgraph.md has the whole contract):

- one memory per item version, id ``lg-<sha256(namespace, key)>`` or that id + ``~1``: a put is an
  upsert by (namespace, key) that a reader never sees missing: the new version is written under
  the slot the current one does not use, and only then is the old version erased (``lg:v``
  counts the versions; ``created_at`` is kept). A read that meets both versions keeps the newer;
- ``session`` = the namespace as JSON (``["users","dana"]``): two namespaces never share a memory
  and ``list_namespaces`` reads the tenant's sessions;
- metadata ``lg:store``, ``lg:ns``, ``lg:key``, ``lg:created``, ``lg:v``, ``lg:ix`` (indexed),
  ``lg:vecs`` (how many field texts were embedded), one ``lg:p<i>`` per namespace level (prefix
  search runs in the engine as metadata equality), the value's top-level fields as
  ``v:<field>`` (filters by equality run in the engine), and for a TTL ``lg:ttl`` (minutes),
  ``lg:exp`` (epoch seconds) and the marker ``lg:expires``;
- text = the ``index`` fields' texts (default: the whole value as JSON). An item with two or more
  field texts also gets one memory per text (``<id>#<version>.<i>``, ``lg:store`` =
  ``langgraph-part``): LangGraph scores an item by its best-matching field;
- a refreshed expiry lives on a node linked from the memory (``cypher/langgraph/set_expiry``).

``search(query=...)`` ranks with falkmem's routed retrieval (``ranking="routed"``, the default:
vector, keyword and graph channels fused; ``score`` is the hit's ``relevance``, 0 to 1 and
comparable across queries, docs/relevance.md; ``min_relevance`` drops the items below it) or as
LangGraph's stores do (``ranking="vector"``: ``score`` is the cosine similarity of the query to
the item's best-matching field, items without vectors fill the page after the scored ones).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)
from langgraph.store.base.embed import get_text_at_path, tokenize_path

from ...errors import ConfigError, InputError, TenantNotFound
from ...memory import Memory
from ...models import Hit
from ...retrieval.filters import build_filters, pair
from ...storage.cypher import query
from ...storage.rows import hit_from_row
from ...tenant import Tenant
from .embed import LangChainEmbedder, read_index
from .filters import field_value, matches, namespace_matches, split_filter

__all__ = ["AsyncFalkmemStore", "FalkmemStore", "item_id", "newest", "slot_ids"]

log = logging.getLogger("falkmem.langgraph")

Ranking = Literal["routed", "vector"]

_STORE = "langgraph"
_PART = "langgraph-part"
_SESSION_PREFIX = '["'  # every namespace's session id is a JSON array of strings
_PAGE = 500
_TTL_KEYS = frozenset({"default_ttl", "refresh_on_read", "omit_expired", "sweep_interval_minutes"})


def item_id(namespace: tuple[str, ...], key: str) -> str:
    """The memory id of (namespace, key) (its first slot; the second is this id + ``~1``)."""
    digest = hashlib.sha256(json.dumps([list(namespace), key], ensure_ascii=False).encode()).hexdigest()
    return f"lg-{digest[:40]}"


def slot_ids(namespace: tuple[str, ...], key: str) -> tuple[str, str]:
    """The two memory ids an item's versions alternate between (see the module docstring)."""
    first = item_id(namespace, key)
    return first, f"{first}~1"


def _sibling(slot: str) -> str:
    return slot[:-2] if slot.endswith("~1") else f"{slot}~1"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _version(h: Hit) -> tuple[int, float]:
    return _int(h.metadata.get("lg:v")), (h.created_at.timestamp() if h.created_at else 0.0)


def _address(h: Hit) -> tuple[tuple[str, ...], str]:
    return tuple(str(x) for x in h.metadata.get("lg:ns") or ()), str(h.metadata.get("lg:key"))


def newest(hits: Iterable[Hit]) -> list[Hit]:
    """``hits`` with one version per item: the newest, where the first version of it stood
    (a read that ran while a put had written the new version and not yet erased the old)."""
    out: list[Hit] = []
    at: dict[tuple[tuple[str, ...], str], int] = {}
    for h in hits:
        i = at.get(_address(h))
        if i is None:
            at[_address(h)] = len(out)
            out.append(h)
        elif _version(h) > _version(out[i]):
            out[i] = h
    return out


def _parts(h: Hit) -> list[str]:
    """The ids of the extra vectors (one memory per field text) of an item version."""
    n = _int(h.metadata.get("lg:vecs"))
    v = _int(h.metadata.get("lg:v"))
    return [f"{h.id}#{v}.{i}" for i in range(n)] if n >= 2 else []


def _session(namespace: tuple[str, ...]) -> str:
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    for label in namespace:
        if not isinstance(label, str) or not label:
            raise InvalidNamespaceError(f"Namespace labels must be non-empty strings: {namespace}")
    s = json.dumps(list(namespace), ensure_ascii=False, separators=(",", ":"))
    if len(s) > 256:
        raise InvalidNamespaceError(f"Namespace is over 256 characters as JSON: {namespace}")
    return s


def _prefix_meta(prefix: Sequence[str]) -> dict[str, Any]:
    return {f"lg:p{i}": label for i, label in enumerate(prefix)}


def _dt(value: Any, default: datetime | None) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    return default or datetime.now(UTC)


def _minutes(value: object, field: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise InputError(field, f"must be a positive number of minutes (or None), not {value!r}")
    return float(value)


def _check_ttl_config(ttl: TTLConfig | None) -> None:
    if ttl is None:
        return
    if not isinstance(ttl, Mapping):
        raise ConfigError("ttl: give LangGraph's TTLConfig dict (default_ttl, refresh_on_read, ...)")
    unknown = sorted(set(ttl) - _TTL_KEYS)
    if unknown:
        raise ConfigError(f"ttl.{unknown[0]}: not a key of LangGraph's TTLConfig ({sorted(_TTL_KEYS)})")
    for key in ("default_ttl", "sweep_interval_minutes"):
        value = ttl.get(key)
        if value is not None:
            try:
                _minutes(value, key)
            except InputError:
                raise ConfigError(f"ttl.{key}: must be a positive number of minutes, not {value!r}") from None
    for key in ("refresh_on_read", "omit_expired"):
        if key in ttl and not isinstance(ttl[key], bool):  # type: ignore[literal-required]
            raise ConfigError(f"ttl.{key}: must be True or False")


class _Store(BaseStore):
    """What ``FalkmemStore`` and ``AsyncFalkmemStore`` share: everything but the TTL sweeper."""

    supports_ttl: bool = True

    def __init__(
        self,
        memory: Memory,
        *,
        tenant: str,
        index: Mapping[str, Any] | Sequence[str] | None = None,
        ttl: TTLConfig | None = None,
        ranking: Ranking = "routed",
        kind: str = "document",
        min_relevance: float | None = None,
    ) -> None:
        spec = read_index(index)
        if ranking not in ("routed", "vector"):
            raise ConfigError(f"ranking: must be 'routed' or 'vector', not {ranking!r}")
        _check_ttl_config(ttl)
        if min_relevance is not None and (
            isinstance(min_relevance, bool)
            or not isinstance(min_relevance, int | float)
            or not 0.0 <= min_relevance <= 1.0
        ):
            raise InputError("min_relevance", "must be a number from 0 to 1 (or None)")
        self._min_relevance = min_relevance
        self._memory = memory
        engine = memory._engine
        if spec.embedder is not None:
            engine = engine.with_embedder(spec.embedder)
        elif spec.dims is not None and spec.dims != engine.embedder.dimension:
            raise ConfigError(
                f"index.dims: {spec.dims}, but the Memory's embedder {engine.embedder.name!r} makes"
                f" {engine.embedder.dimension}-dimensional vectors; pass index.embed or drop dims"
            )
        self._tenant: Tenant = Tenant(memory.tenant(tenant).id, engine)
        self._embedder = engine.embedder
        self._fields = spec.fields
        self.index_config: dict[str, Any] | None = (
            dict(index) if isinstance(index, Mapping) else None if index is None else {"fields": list(index)}
        )
        self.embeddings: Embeddings | None = (
            spec.embedder.embeddings if isinstance(spec.embedder, LangChainEmbedder) else None
        )
        """The LangChain ``Embeddings`` of ``index.embed`` (None: the Memory's embedder)."""
        self.ttl_config = ttl
        self._ranking: Ranking = ranking
        self._kind = kind
        self._checked = False
        self._check_tenant()

    @property
    def tenant(self) -> Tenant:
        """The falkmem tenant behind the store."""
        return self._tenant

    @property
    def ranking(self) -> Ranking:
        """How ``search(query=...)`` ranks: ``routed`` or ``vector`` (see the module docstring)."""
        return self._ranking

    def _check_tenant(self) -> None:
        """A tenant built with another model cannot be searched with this one's vectors."""
        if self._checked:
            return
        try:
            meta = self._memory.admin.store.meta(self._tenant.id)
        except TenantNotFound:
            return
        e = self._embedder
        if meta.embedder != e.name or meta.dimension != e.dimension:
            raise ConfigError(
                f"index.embed: tenant {self._tenant.id!r} was built with {meta.embedder!r}"
                f" ({meta.dimension} dims); this store embeds with {e.name!r} ({e.dimension} dims)."
                " Open it with the same model, or use another tenant (re-embedding means writing"
                " the items again)"
            )
        self._checked = True

    def _omit_expired(self) -> bool:
        cfg = self.ttl_config
        return True if not cfg else bool(cfg.get("omit_expired", True))

    # --- BaseStore ------------------------------------------------------------------------------
    def _batch(self, ops: Iterable[Op]) -> list[Result]:
        """Reads see the state before the batch's writes; the last put of a (namespace, key) wins.
        Every op is checked before any runs (a bad one fails the batch, nothing written)."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, PutOp):
                _session(tuple(op.namespace))
                if op.ttl is not None:
                    _minutes(op.ttl, "ttl")
            elif isinstance(op, SearchOp | ListNamespacesOp):
                for name in ("limit", "offset"):
                    v = getattr(op, name)
                    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                        raise InputError(name, f"must be an integer >= 0, not {v!r}")
            elif not isinstance(op, GetOp):
                raise ValueError(f"Unknown operation type: {type(op)}")
        now = time.time()
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        gets = [(tuple(op.namespace), op.key) for op in ops if isinstance(op, GetOp)]
        found = self._current(gets, now)
        refresh: list[Hit] = []
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                h = found.get((tuple(op.namespace), op.key))
                results[i] = self._item(h) if h is not None else None
                if h is not None and op.refresh_ttl:
                    refresh.append(h)
            elif isinstance(op, SearchOp):
                items, hits = self._search(op, now)
                results[i] = items
                if op.refresh_ttl:
                    refresh.extend(hits)
            elif isinstance(op, ListNamespacesOp):
                results[i] = self._list_namespaces(op, now)
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
        self._refresh(refresh, now)
        if puts:
            self._apply(list(puts.values()), now)
        return results

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self._batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self._batch, list(ops))

    # --- reading --------------------------------------------------------------------------------
    def _run(self, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        adm = self._memory.admin
        return adm.executor.run(self._tenant.graph, query(name), params)

    def _versions(
        self, items: list[tuple[tuple[str, ...], str]]
    ) -> dict[tuple[tuple[str, ...], str], list[Hit]]:
        """The stored versions of each item, newest first (both slots of an item are read in
        one query, so a put between the two cannot hide it)."""
        slots = {i: a for a in items for i in slot_ids(*a)}
        ids = list(slots)
        out: dict[tuple[tuple[str, ...], str], list[Hit]] = {}
        step = self._memory.settings.max_batch - self._memory.settings.max_batch % 2
        try:
            for start in range(0, len(ids), step):
                for h in self._tenant.get_many(ids[start : start + step]):
                    out.setdefault(slots[h.id], []).append(h)
        except TenantNotFound:
            return {}
        for versions in out.values():
            versions.sort(key=_version, reverse=True)
        return out

    def _get_many(self, ids: Sequence[str]) -> dict[str, Hit]:
        out: dict[str, Hit] = {}
        step = self._memory.settings.max_batch
        for start in range(0, len(ids), step):
            out.update((h.id, h) for h in self._tenant.get_many(list(ids[start : start + step])))
        return out

    def _expiries(self, hits: Iterable[Hit]) -> dict[str, float]:
        """When each item version with a TTL expires: the time on its expiry node (written with
        the item, moved by each refresh), else its metadata's ``lg:exp`` (the item was written
        and the process stopped before its expiry node was)."""
        out: dict[str, float] = {}
        for h in hits:
            exp = h.metadata.get("lg:exp")
            if h.metadata.get("lg:ttl") is not None and isinstance(exp, int | float):
                out[h.id] = float(exp)
        ids = list(out)
        step = self._memory.settings.max_batch
        for start in range(0, len(ids), step):
            for r in self._run("langgraph/expiry_of", {"ids": ids[start : start + step]}):
                if r["at"] is not None:
                    out[str(r["id"])] = float(r["at"])
        return out

    def _live(self, hits: list[Hit], now: float) -> list[Hit]:
        """``hits`` less the expired ones (all of them when ``omit_expired`` is False)."""
        if not self._omit_expired():
            return hits
        exp = self._expiries(hits)
        return [h for h in hits if exp.get(h.id, math.inf) > now]

    def _current(
        self, items: list[tuple[tuple[str, ...], str]], now: float
    ) -> dict[tuple[tuple[str, ...], str], Hit]:
        newest_of = {a: vs[0] for a, vs in self._versions(items).items()}
        live = {h.id for h in self._live(list(newest_of.values()), now)}
        return {a: h for a, h in newest_of.items() if h.id in live}

    def _item(self, h: Hit, score: float | None = None, *, search: bool = False) -> Item:
        m = h.metadata
        value = {k[2:]: v for k, v in m.items() if k.startswith("v:")}
        created = _dt(m.get("lg:created"), h.created_at)
        updated = h.created_at or created
        ns = tuple(str(x) for x in m.get("lg:ns") or ())
        key = str(m.get("lg:key"))
        if search:
            return SearchItem(ns, key, value, created, updated, score=score)
        return Item(value=value, key=key, namespace=ns, created_at=created, updated_at=updated)

    def _scope(self, base: Mapping[str, Any]) -> list[str]:
        """The canonical ``meta_kv`` pairs of ``base`` (checked as falkmem checks a metadata
        filter; a value that is not JSON is an ``InputError`` naming ``filter.<field>``)."""
        try:
            f = build_filters(metadata=dict(base))
        except InputError as exc:  # name the caller's filter field, not the stored metadata key
            if exc.field.startswith("metadata.v:"):
                raise type(exc)(f"filter.{exc.field.removeprefix('metadata.v:')}", exc.rule) from None
            raise
        return list(f.metadata or ()) if f is not None else []

    def _search(self, op: SearchOp, now: float) -> tuple[list[SearchItem], list[Hit]]:
        engine, here = split_filter(op.filter)
        try:
            if op.query and self._ranking == "vector":
                found = self._vector_search(op, engine, here, now)
            elif op.query:
                found = self._routed_search(op, engine, here, now)
            else:
                found = self._list_search(op, engine, here, now)
        except TenantNotFound:
            return [], []
        page = found[op.offset : op.offset + op.limit]
        return [item for item, _ in page], [h for _, h in page]

    def _keep(self, h: Hit, here: Mapping[str, Any]) -> bool:
        value = {k[2:]: v for k, v in h.metadata.items() if k.startswith("v:")}
        return all(matches(field_value(value, f), c) for f, c in here.items())

    def _routed_search(
        self, op: SearchOp, engine: dict[str, Any], here: dict[str, Any], now: float
    ) -> list[tuple[SearchItem, Hit]]:
        meta = {"lg:store": _STORE, **_prefix_meta(op.namespace_prefix), **engine, "lg:ix": True}
        self._scope(meta)  # the filter values' errors name the filter field
        want = op.offset + op.limit
        max_k = self._memory.settings.max_k
        k = max_k if here else min(max(want, 1), max_k)
        while True:
            try:
                hits = self._tenant.search(
                    op.query or "", k=k, min_relevance=self._min_relevance, metadata=meta
                )
            except InputError as exc:
                if exc.field.startswith("metadata.v:"):
                    raise type(exc)(f"filter.{exc.field.removeprefix('metadata.v:')}", exc.rule) from None
                raise
            kept = [h for h in self._live(newest(hits), now) if self._keep(h, here)]
            if len(kept) >= want or len(hits) < k or k >= max_k:
                return [(self._item(h, h.relevance, search=True), h) for h in kept]  # type: ignore[misc]
            k = max_k  # expired or stale versions took places: look further

    def _list_search(
        self, op: SearchOp, engine: dict[str, Any], here: dict[str, Any], now: float
    ) -> list[tuple[SearchItem, Hit]]:
        scope = self._scope({"lg:store": _STORE, **_prefix_meta(op.namespace_prefix), **engine})
        return [(self._item(h, search=True), h) for h in self._listed(scope, here, op.offset + op.limit, now)]  # type: ignore[misc]

    def _listed(self, scope: list[str], here: Mapping[str, Any], want: int, now: float) -> list[Hit]:
        """Up to ``want`` live items of ``scope`` that pass ``here``, newest first."""
        listed: list[Hit] = []
        out: list[Hit] = []
        skip = 0
        while len(out) < want:
            rows = self._run("langgraph/list_items", {"scope": scope, "skip": skip, "limit": _PAGE})
            listed = newest([*listed, *(hit_from_row(r["a"], 0.0) for r in rows)])
            out = [h for h in self._live(listed, now) if self._keep(h, here)]
            if len(rows) < _PAGE:
                break
            skip += _PAGE
        return out[:want]

    def _query_vector(self, text: str) -> list[float]:
        e = self._embedder
        if isinstance(e, LangChainEmbedder):
            v = e.embed_query(text)
        else:
            [v] = e.embed([text])
        if len(v) != e.dimension or not all(math.isfinite(float(x)) for x in v):
            raise InputError("query", f"the embedder {e.name!r} returned a bad vector for it")
        return [float(x) for x in v]

    def _vector_search(
        self, op: SearchOp, engine: dict[str, Any], here: dict[str, Any], now: float
    ) -> list[tuple[SearchItem, Hit]]:
        """LangGraph's ranking: each item's score is the cosine similarity of the query to its
        best-matching field vector; items without a vector follow, unscored."""
        prefix = _prefix_meta(op.namespace_prefix)
        self._scope({"lg:store": _STORE, **prefix, **engine})  # the filter values' errors name the field
        equal = {f.removeprefix("v:"): v for f, v in engine.items()}
        self._memory.admin.store.meta(self._tenant.id)  # TenantNotFound before embedding anything
        qv = self._query_vector(op.query or "")
        scope = self._scope({"lg:vec": True, **prefix})
        want = op.offset + op.limit
        out: list[tuple[SearchItem, Hit]] = []
        done: set[str] = set()
        page = max(100, 4 * want)
        skip = 0
        while len(out) < want:
            rows = self._run(
                "langgraph/vector_scores", {"vector": qv, "scope": scope, "skip": skip, "limit": page}
            )
            cands: list[tuple[Hit, float]] = []
            for r in rows:
                if r["owner"] is None:  # a field memory whose item was just erased
                    continue
                h = hit_from_row(r["owner"], 0.0)
                if h.id in done:
                    continue
                sib = hit_from_row(r["sibling"], 0.0) if r["sibling"] is not None else None
                if sib is not None and _version(sib) > _version(h):  # an older version, still there
                    done.add(h.id)
                    continue
                _, _, tail = str(r["id"]).partition("#")
                if tail and int(tail.split(".")[0]) != _int(h.metadata.get("lg:v")):
                    continue  # a field vector of an older version of this slot
                done.add(h.id)
                cands.append((h, 1.0 - float(r["distance"])))
            live = {h.id for h in self._live([h for h, _ in cands], now)}
            for h, score in cands:
                if h.id in live and self._keep(h, here) and self._keep(h, equal):
                    out.append((self._item(h, score, search=True), h))  # type: ignore[arg-type]
                    if len(out) >= want:
                        break
            if len(rows) < page:
                break
            skip += page
        if len(out) < want:  # LangGraph's in-memory store fills the page with unscored items
            unscored = self._scope({"lg:store": _STORE, **prefix, **engine, "lg:vecs": 0})
            for h in self._listed(unscored, here, want - len(out), now):
                out.append((self._item(h, None, search=True), h))  # type: ignore[arg-type]
        return out

    def _list_namespaces(self, op: ListNamespacesOp, now: float) -> list[tuple[str, ...]]:
        adm = self._memory.admin
        try:
            adm.store.meta(self._tenant.id)
        except TenantNotFound:
            return []
        rows = self._run("retrieve/sessions_with_prefix", {"prefix": _SESSION_PREFIX})
        dead: set[str] = set()
        if self._omit_expired():
            item = pair("lg:store", _STORE)
            dead = {str(r["id"]) for r in self._run("langgraph/dead_sessions", {"now": now, "item": item})}
        spaces: set[tuple[str, ...]] = set()
        for r in rows:
            if str(r["id"]) in dead:
                continue
            try:
                ns = tuple(json.loads(str(r["id"])))
            except ValueError:
                continue
            if all(namespace_matches(c, ns) for c in op.match_conditions or ()):
                spaces.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(spaces)[op.offset : op.offset + op.limit]

    # --- writing --------------------------------------------------------------------------------
    def _texts(self, value: Mapping[str, Any], index: Sequence[str] | None) -> list[str]:
        """The texts of ``value`` that are embedded, one per field match (LangGraph's paths)."""
        out: list[str] = []
        for path in index if index is not None else ("$",):
            if path == "$":
                out.append(json.dumps(value, ensure_ascii=False, sort_keys=True))
            else:
                out.extend(get_text_at_path(value, tokenize_path(path)))
        limit = self._memory.settings.max_text_chars
        return [t[:limit] for t in out if t.strip()]

    def _refresh(self, hits: list[Hit], now: float) -> None:
        """Restart the TTL of the items read (only those with a TTL that have not expired: a
        read never brings an expired item back)."""
        with_ttl = {h.id: h for h in hits if h.metadata.get("lg:ttl") is not None}
        if not with_ttl:
            return
        exp = self._expiries(with_ttl.values())
        rows = [
            {"id": i, "at": now + float(h.metadata["lg:ttl"]) * 60}
            for i, h in with_ttl.items()
            if exp.get(i, math.inf) > now
        ]
        if rows:
            self._run("langgraph/set_expiry", {"rows": rows})

    def _apply(self, puts: list[PutOp], now: float) -> None:
        self._check_tenant()
        old = self._versions([(tuple(op.namespace), op.key) for op in puts])
        expiry = self._expiries(h for vs in old.values() for h in vs)
        stamp = datetime.fromtimestamp(now, UTC).isoformat()
        records: list[dict[str, Any]] = []
        retire: list[str] = []  # erased once the new versions are written
        first: list[str] = []  # erased before: the older of two versions a put left behind
        expiring: list[dict[str, Any]] = []
        for op in puts:
            ns = tuple(op.namespace)
            versions = old.get((ns, op.key), [])
            if op.value is None:
                for h in versions:
                    retire.extend([*_parts(h), h.id])
                continue
            prev = versions[0] if versions else None
            alive = prev is not None and expiry.get(prev.id, math.inf) > now
            free = [i for i in slot_ids(ns, op.key) if i not in {h.id for h in versions}]
            if not free:  # both slots hold a version (a put was interrupted): free the older one
                first.extend([*_parts(versions[-1]), versions[-1].id])
                free = [versions[-1].id]
            retire.extend(x for h in versions if h.id != free[0] for x in (*_parts(h), h.id))
            index = self._fields if op.index is None else (None if op.index is False else list(op.index))
            texts = [] if op.index is False else self._texts(op.value, index)
            version = max((_int(h.metadata.get("lg:v")) for h in versions), default=0) + 1
            session = _session(ns)
            meta: dict[str, Any] = {
                "lg:store": _STORE, "lg:ns": list(ns), "lg:key": op.key,
                "lg:created": ((prev.metadata.get("lg:created") if prev and alive else None) or stamp),
                "lg:v": version, "lg:ix": op.index is not False, "lg:vecs": len(texts),
                "lg:vec": len(texts) == 1, **_prefix_meta(ns),
                **{f"v:{k}": v for k, v in op.value.items()},
            }  # fmt: skip
            if op.ttl is not None:
                at = now + float(op.ttl) * 60
                meta.update({"lg:ttl": float(op.ttl), "lg:exp": at, "lg:expires": True})
                expiring.append({"id": free[0], "ttl": float(op.ttl)})
            if len(texts) >= 2:  # one memory per field text: LangGraph scores the best field
                for i, t in enumerate(texts):
                    part = {"lg:store": _PART, "lg:ns": list(ns), "lg:key": op.key, "lg:vec": True,
                            **_prefix_meta(ns)}  # fmt: skip
                    records.append({"id": f"{free[0]}#{version}.{i}", "text": t, "session": session,
                                    "kind": self._kind, "metadata": part})  # fmt: skip
            if op.index is False:
                text = op.key
            elif len(texts) == 1:
                text = texts[0]
            else:
                text = "\n".join(texts) or json.dumps(op.value, ensure_ascii=False, sort_keys=True)
            limit = self._memory.settings.max_text_chars
            records.append({"id": free[0], "text": text[:limit] if text.strip() else op.key,
                            "session": session, "kind": self._kind, "metadata": meta})  # fmt: skip
        self._delete(first)
        if records:
            self._tenant.add_many(records)
        if expiring:  # the TTL runs from when the item can be read, as a database's NOW() would
            done = time.time()
            rows = [{"id": r["id"], "at": done + r["ttl"] * 60} for r in expiring]
            self._run("langgraph/set_expiry", {"rows": rows})
        self._delete(retire)

    def _delete(self, ids: list[str]) -> None:
        step = self._memory.settings.max_batch
        for start in range(0, len(ids), step):
            chunk = ids[start : start + step]
            self._run("langgraph/drop_expiry", {"ids": chunk})
            self._tenant.delete_many(chunk)

    # --- TTL ------------------------------------------------------------------------------------
    def _sweep(self) -> int:
        """Delete the expired items; return how many."""
        try:
            self._memory.admin.store.meta(self._tenant.id)
        except TenantNotFound:
            return 0
        now = time.time()
        limit = self._memory.settings.max_batch
        marker = pair("lg:expires", True)
        repair: list[dict[str, Any]] = []
        for r in self._run("langgraph/expiry_unset", {"marker": marker, "limit": limit}):
            try:
                at = float(json.loads(str(r["metadata"])).get("lg:exp"))
            except (TypeError, ValueError, AttributeError):
                continue
            repair.append({"id": str(r["id"]), "at": at})
        if repair:
            self._run("langgraph/set_expiry", {"rows": repair})
        swept = 0
        for _ in range(10_000):
            ids = [str(r["id"]) for r in self._run("langgraph/expired", {"now": now, "limit": limit})]
            if not ids:
                break
            found = self._get_many(ids)
            self._delete(
                [x for h in found.values() for x in (*_parts(h), h.id)] + [i for i in ids if i not in found]
            )
            swept += len(found)
        self._run("langgraph/prune_expiry", {"limit": limit})
        if swept:
            log.info("swept %d expired items from tenant %s", swept, self._tenant.id)
        return swept

    def _interval(self, sweep_interval_minutes: float | None) -> float:
        cfg = self.ttl_config or {}
        return float(sweep_interval_minutes or cfg.get("sweep_interval_minutes") or 5)


class FalkmemStore(_Store):
    """A LangGraph store whose items are memories of one falkmem tenant.

    Args:
        memory: an open ``Memory`` (the caller closes it).
        tenant: the tenant id (created on the first put).
        index: LangGraph's ``IndexConfig``: ``fields`` (the value paths embedded; default the
            whole value), ``embed`` (a LangChain ``Embeddings``, a sync or async function of a
            list of texts, or a ``"provider:model"`` string; default the Memory's embedder) and
            ``dims`` (required with ``embed``). A plain list is ``fields``.
        ttl: LangGraph's ``TTLConfig``: ``default_ttl`` (minutes), ``refresh_on_read`` (default
            True), ``sweep_interval_minutes``, ``omit_expired`` (default True here: an expired
            item is gone for readers at once).
        ranking: how ``search(query=...)`` ranks: ``routed`` (falkmem's retrieval) or ``vector``
            (LangGraph's: cosine of the best field).
        kind: the falkmem kind of the memories written.
        min_relevance: a routed search with a query drops the items whose relevance (their
            ``score``) is below this, 0 to 1 (0.033 is the recommended value). None: the
            ``relevance.min_relevance`` setting (by default, keep every item).

    Raises:
        ConfigError: a bad ``index``/``ttl``/``ranking``, or a tenant built with another model.

    Example:
        >>> with Memory() as mem:                                        # doctest: +SKIP
        ...     store = FalkmemStore(mem, tenant="agents", ttl={"default_ttl": 60})
        ...     store.put(("users", "dana"), "seat", {"text": "Dana prefers aisle seats."})
        ...     store.start_ttl_sweeper()
    """

    def __init__(
        self,
        memory: Memory,
        *,
        tenant: str,
        index: Mapping[str, Any] | Sequence[str] | None = None,
        ttl: TTLConfig | None = None,
        ranking: Ranking = "routed",
        kind: str = "document",
        min_relevance: float | None = None,
    ) -> None:
        super().__init__(
            memory,
            tenant=tenant,
            index=index,
            ttl=ttl,
            ranking=ranking,
            kind=kind,
            min_relevance=min_relevance,
        )
        self._sweeper: threading.Thread | None = None
        self._stop = threading.Event()

    def sweep_ttl(self) -> int:
        """Delete the items whose TTL has run out; return how many were deleted."""
        return self._sweep()

    def start_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> concurrent.futures.Future[None]:
        """Sweep every ``sweep_interval_minutes`` (default: the TTL config's, else 5) in a daemon
        thread, as LangGraph's stores do; without a TTL config, nothing starts.

        Returns:
            a future that is done when the sweeper stops; cancelling it stops the sweeper.
        """
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        if not self.ttl_config:
            future.set_result(None)
            return future
        future.add_done_callback(lambda f: self._stop.set() if f.cancelled() else None)
        if self._sweeper is not None and self._sweeper.is_alive():
            return future
        self._stop.clear()
        interval = self._interval(sweep_interval_minutes) * 60

        def loop() -> None:
            try:
                while not self._stop.wait(interval):
                    try:
                        self.sweep_ttl()
                    except Exception:
                        log.exception("TTL sweep failed; the sweeper goes on")
                if not future.done():
                    future.set_result(None)
            except BaseException as exc:  # pragma: no cover - reported through the future
                if not future.done():
                    future.set_exception(exc)

        self._sweeper = threading.Thread(target=loop, daemon=True, name="falkmem-ttl-sweeper")
        self._sweeper.start()
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; False when it did not stop within ``timeout`` seconds."""
        t = self._sweeper
        if t is None or not t.is_alive():
            return True
        self._stop.set()
        t.join(timeout)
        if t.is_alive():
            return False
        self._sweeper = None
        return True

    def __del__(self) -> None:
        if getattr(self, "_sweeper", None) is not None:
            self.stop_ttl_sweeper(timeout=0.1)


class AsyncFalkmemStore(_Store):
    """``FalkmemStore`` for asyncio code, as LangGraph's ``AsyncPostgresStore``: use the ``a``
    methods (``aput``, ``asearch``...); a sync call from the event loop's own thread raises
    ``asyncio.InvalidStateError`` (it would block the loop), one from another thread runs. The
    TTL methods are coroutines. Arguments as :class:`FalkmemStore`."""

    def __init__(
        self,
        memory: Memory,
        *,
        tenant: str,
        index: Mapping[str, Any] | Sequence[str] | None = None,
        ttl: TTLConfig | None = None,
        ranking: Ranking = "routed",
        kind: str = "document",
        min_relevance: float | None = None,
    ) -> None:
        super().__init__(
            memory,
            tenant=tenant,
            index=index,
            ttl=ttl,
            ranking=ranking,
            kind=kind,
            min_relevance=min_relevance,
        )
        self._task: asyncio.Task[None] | None = None
        self._stop_event: asyncio.Event | None = None

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._batch(ops)
        raise asyncio.InvalidStateError(
            "AsyncFalkmemStore: a sync call from the event loop's thread would block it; await the"
            " a-method (aput, aget, asearch, ...) or call from another thread"
        )

    async def sweep_ttl(self) -> int:
        """Delete the items whose TTL has run out; return how many were deleted."""
        return await asyncio.to_thread(self._sweep)

    async def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> asyncio.Task[None]:
        """Sweep every ``sweep_interval_minutes`` (default: the TTL config's, else 5) in a task
        of the running loop; without a TTL config the task ends at once."""
        if not self.ttl_config:
            return asyncio.create_task(asyncio.sleep(0))
        if self._task is not None and not self._task.done():
            return self._task
        stop = self._stop_event = asyncio.Event()
        interval = self._interval(sweep_interval_minutes) * 60

        async def loop() -> None:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), timeout=interval)
                    break
                except TimeoutError:
                    pass
                try:
                    await self.sweep_ttl()
                except Exception:
                    log.exception("TTL sweep failed; the sweeper goes on")

        self._task = asyncio.create_task(loop(), name="falkmem-ttl-sweeper")
        return self._task

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper task; False when it did not stop within ``timeout`` seconds."""
        task = self._task
        if task is None or task.done():
            return True
        assert self._stop_event is not None
        self._stop_event.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=timeout)
        except TimeoutError:
            return False
        self._task = None
        return True
