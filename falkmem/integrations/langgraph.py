"""``FalkmemStore``: a LangGraph ``BaseStore`` on one falkmem tenant (``pip install falkmem[langgraph]``).

Each item is one falkmem memory:

- id ``lg-<sha256(namespace, key)>`` or that id + ``~1``: a put is an upsert by (namespace, key)
  that a reader never sees missing: the new version is written under the slot the current one
  does not use, and only then is the old version erased (``created_at`` is kept; ``lg:v`` counts
  the versions). A ``get`` reads both slots in one query and returns the newer; a search that
  meets both versions keeps the newer;
- ``session`` = the namespace as JSON (``["users","dana"]``), so two namespaces never share a
  memory, and ``list_namespaces`` reads the tenant's sessions;
- metadata ``lg:ns``, ``lg:key``, ``lg:created``, ``lg:ix`` (indexed for search), one ``lg:p<i>``
  per namespace level (prefix search runs in the engine as metadata equality) and the value's
  top-level fields as ``v:<field>`` (the value round-trips as JSON; ``filter={"field": x}`` is
  metadata equality, filtered inside falkmem's queries);
- text = the ``index`` fields of the value (default: the whole value as JSON), which falkmem
  embeds and indexes: ``search(query=...)`` is ``Tenant.search`` (routed, fused retrieval).
  Each ``SearchItem.score`` is the hit's ``relevance`` (0 to 1, the chance it is evidence for the
  query, comparable across queries: docs/relevance.md); the store's ``min_relevance`` drops the
  hits below it (default: the ``relevance.min_relevance`` setting, None: keep every hit).

Filters with operators other than ``$eq`` (``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``) and
partial matches of nested objects are checked here on the candidates the engine returned (a
search with a query looks at most ``max_k`` of them). An equality with NaN or ±infinity
matches nothing (a value holding them cannot be put: values are strict JSON), and an order
comparison with NaN is false, as in LangGraph's in-memory store; a filter value that is not
JSON is an ``InputError`` naming ``filter.<field>``. TTL is not supported (``supports_ttl``
is False, as the API defines). Values are limited by ``max_metadata_bytes`` (16 KiB as JSON).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path, tokenize_path

from ..errors import InputError, TenantNotFound
from ..memory import Memory
from ..models import Hit
from ..storage.cypher import query
from ..tenant import Tenant

__all__ = ["FalkmemStore"]

_SESSION_PREFIX = '["'  # every namespace's session id is a JSON array of strings
_PAGE = 500


def item_id(namespace: tuple[str, ...], key: str) -> str:
    """The memory id of (namespace, key) (its first slot; the second is this id + ``~1``)."""
    digest = hashlib.sha256(json.dumps([list(namespace), key], ensure_ascii=False).encode()).hexdigest()
    return f"lg-{digest[:40]}"


def slot_ids(namespace: tuple[str, ...], key: str) -> tuple[str, str]:
    """The two memory ids an item's versions alternate between (see the module docstring)."""
    first = item_id(namespace, key)
    return first, f"{first}~1"


def _version(h: Hit) -> tuple[int, float]:
    v = h.metadata.get("lg:v")
    return (v if isinstance(v, int) and not isinstance(v, bool) else 0), (
        h.created_at.timestamp() if h.created_at else 0.0
    )


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


def _split_filter(flt: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(engine equality on ``v:<field>``, the conditions checked here)."""
    engine: dict[str, Any] = {}
    here: dict[str, Any] = {}
    for field, cond in (flt or {}).items():
        if isinstance(cond, Mapping) and set(cond) == {"$eq"}:
            engine[f"v:{field}"] = cond["$eq"]
        elif isinstance(cond, Mapping):
            here[field] = cond  # operators, or a partial match of a nested object
        else:
            engine[f"v:{field}"] = cond
    return engine, here


def _op(value: Any, operator: str, arg: Any) -> bool:
    if operator == "$eq":
        return bool(value == arg)
    if operator == "$ne":
        return bool(value != arg)
    if value is None:
        return False
    try:
        a, b = float(value), float(arg)
    except (TypeError, ValueError):
        return False
    if operator == "$gt":
        return a > b
    if operator == "$gte":
        return a >= b
    if operator == "$lt":
        return a < b
    if operator == "$lte":
        return a <= b
    raise ValueError(f"Unsupported filter operator: {operator}")


def _matches(value: Any, cond: Any) -> bool:
    if isinstance(cond, Mapping):
        if any(k.startswith("$") for k in cond):
            return all(_op(value, k, v) for k, v in cond.items())
        return isinstance(value, Mapping) and all(_matches(value.get(k), v) for k, v in cond.items())
    return bool(value == cond)


def _dt(value: Any, default: datetime | None) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    return default or datetime.now(UTC)


class FalkmemStore(BaseStore):
    """A LangGraph store whose items are memories of one falkmem tenant.

    Args:
        memory: an open ``Memory`` (the caller closes it).
        tenant: the tenant id (created on the first put).
        index: the value fields embedded for ``search(query=...)`` (LangGraph path syntax:
            ``"text"``, ``"a.b"``, ``"items[*].text"``); None = the whole value as JSON.
        kind: the falkmem kind of the memories written.
        min_relevance: a search with a query drops the items whose relevance (their ``score``)
            is below this, 0 to 1 (``Tenant.search(min_relevance=...)``; 0.033 is the recommended
            value). None: the ``relevance.min_relevance`` setting (by default, keep every item).
            ``BaseStore.search`` takes no extra argument: it is the store's.
    """

    __slots__ = ("_index", "_kind", "_memory", "_min_relevance", "_tenant")

    def __init__(
        self,
        memory: Memory,
        *,
        tenant: str,
        index: Sequence[str] | None = None,
        kind: str = "document",
        min_relevance: float | None = None,
    ) -> None:
        if min_relevance is not None and (
            isinstance(min_relevance, bool)
            or not isinstance(min_relevance, int | float)
            or not 0.0 <= min_relevance <= 1.0
        ):
            raise InputError("min_relevance", "must be a number from 0 to 1 (or None)")
        self._memory = memory
        self._tenant: Tenant = memory.tenant(tenant)
        self._index = list(index) if index is not None else None
        self._kind = kind
        self._min_relevance = min_relevance

    @property
    def tenant(self) -> Tenant:
        """The falkmem tenant behind the store."""
        return self._tenant

    # --- BaseStore ------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Reads see the state before the batch's writes; the last put of a (namespace, key) wins."""
        ops = list(ops)
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        gets = [(tuple(op.namespace), op.key) for op in ops if isinstance(op, GetOp)]
        found = {a: vs[0] for a, vs in self._versions(gets).items()}
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                h = found.get((tuple(op.namespace), op.key))
                results[i] = self._item(h) if h is not None else None
            elif isinstance(op, SearchOp):
                results[i] = self._search(op)
            elif isinstance(op, ListNamespacesOp):
                results[i] = self._list_namespaces(op)
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
            else:
                raise ValueError(f"Unknown operation type: {type(op)}")
        if puts:
            self._apply(list(puts.values()))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # --- reading --------------------------------------------------------------------------------
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

    def _search(self, op: SearchOp) -> list[SearchItem]:
        try:
            return self._search_items(op)
        except InputError as exc:  # name the caller's filter field, not the stored metadata key
            if exc.field.startswith("metadata.v:"):
                raise type(exc)(f"filter.{exc.field.removeprefix('metadata.v:')}", exc.rule) from None
            raise

    def _search_items(self, op: SearchOp) -> list[SearchItem]:
        engine, here = _split_filter(op.filter)
        meta = {"lg:store": "langgraph", **_prefix_meta(op.namespace_prefix), **engine}
        want = op.offset + op.limit
        out: list[SearchItem] = []
        try:
            if op.query:
                k = self._memory.settings.max_k if here else min(want, self._memory.settings.max_k)
                hits = self._tenant.search(
                    op.query, k=k, min_relevance=self._min_relevance, metadata={**meta, "lg:ix": True}
                )
                for h in newest(hits):
                    item = self._item(h, h.relevance, search=True)
                    if all(_matches(item.value.get(f), c) for f, c in here.items()):
                        out.append(item)  # type: ignore[arg-type]
                return out[op.offset : want]
            cursor: str | None = None
            listed: list[Hit] = []
            while len(out) < want:
                page = self._tenant.list(
                    cursor=cursor, limit=_PAGE if here else min(want, _PAGE), metadata=meta
                )
                listed = newest([*listed, *page])  # a page may hold both versions of an item
                out = []
                for h in listed:
                    item = self._item(h, search=True)
                    if all(_matches(item.value.get(f), c) for f, c in here.items()):
                        out.append(item)  # type: ignore[arg-type]
                cursor = page.next_cursor
                if cursor is None:
                    break
        except TenantNotFound:
            return []
        return out[op.offset : want]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        adm = self._memory.admin
        try:
            adm.store.meta(self._tenant.id)
        except TenantNotFound:
            return []
        rows = adm.executor.run(
            self._tenant.graph, query("retrieve/sessions_with_prefix"), {"prefix": _SESSION_PREFIX}
        )
        spaces: set[tuple[str, ...]] = set()
        for r in rows:
            try:
                ns = tuple(json.loads(str(r["id"])))
            except ValueError:
                continue
            if all(_condition(c, ns) for c in op.match_conditions or ()):
                spaces.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(spaces)[op.offset : op.offset + op.limit]

    # --- writing --------------------------------------------------------------------------------
    def _text(self, value: Mapping[str, Any], index: list[str] | None) -> str:
        if index is None:
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        parts = [t for path in index for t in get_text_at_path(value, tokenize_path(path))]
        return "\n".join(p for p in parts if p.strip()) or json.dumps(
            value, ensure_ascii=False, sort_keys=True
        )

    def _apply(self, puts: list[PutOp]) -> None:
        for op in puts:
            if op.ttl is not None:
                raise NotImplementedError("FalkmemStore does not support ttl")
        old = self._versions([(tuple(op.namespace), op.key) for op in puts])
        now = datetime.now(UTC).isoformat()
        records: list[dict[str, Any]] = []
        retire: list[str] = []  # erased once the new versions are written
        first: list[str] = []  # erased before: the older of two versions a put left behind
        for op in puts:
            ns = tuple(op.namespace)
            versions = old.get((ns, op.key), [])
            if op.value is None:
                retire.extend(h.id for h in versions)
                continue
            prev = versions[0] if versions else None
            free = [i for i in slot_ids(ns, op.key) if i not in {h.id for h in versions}]
            if not free:  # both slots hold a version (a put was interrupted): free the older one
                first.append(versions[-1].id)
                free = [versions[-1].id]
            retire.extend(h.id for h in versions if h.id not in first)
            index = self._index if op.index is None else (None if op.index is False else list(op.index))
            text = self._text(op.value, index)[: self._memory.settings.max_text_chars]
            meta: dict[str, Any] = {
                "lg:store": "langgraph", "lg:ns": list(ns), "lg:key": op.key,
                "lg:created": (prev.metadata.get("lg:created") if prev else None) or now,
                "lg:v": (_version(prev)[0] if prev else 0) + 1,
                "lg:ix": op.index is not False, **_prefix_meta(ns),
                **{f"v:{k}": v for k, v in op.value.items()},
            }  # fmt: skip
            records.append({"id": free[0], "text": text if op.index is not False else op.key,
                            "session": _session(ns), "kind": self._kind, "metadata": meta})  # fmt: skip
        self._delete(first)
        if records:
            self._tenant.add_many(records)
        self._delete(retire)

    def _delete(self, ids: list[str]) -> None:
        step = self._memory.settings.max_batch
        for start in range(0, len(ids), step):
            self._tenant.delete_many(ids[start : start + step])


def _condition(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(cond.path)
    if len(path) > len(ns):
        return False
    part = ns[: len(path)] if cond.match_type == "prefix" else ns[len(ns) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
