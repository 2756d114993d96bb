"""Per-tenant BM25 statistics (corpus size, total tokens, document frequencies), cached in process.

The keyword channel needs, for every query term, how many memories contain it (``df``): to
drop very common terms before the full-text index enumerates their matches, and for BM25's
idf. A count reads the term's matches up to a limit (the channel's ``max_df`` + 1: a term
counted at the limit is dropped whatever its true count), so the counts are kept here between
queries and sent with the query; only unknown terms are counted (``retrieve/term_count``).
A count that reached its limit only says "at least the limit": it answers a later query only
if that query's limit is no higher.

Two guards keep the cache exact:

* a generation per tenant, bumped by this process's write paths (:func:`bump`: the writer,
  forgetting); a bump drops the tenant's entry, and a query that started before the bump
  does not store what it read;
* a snapshot tag: every entry remembers the ``(n_docs, n_tokens)`` the store reported with
  its counts, and every query reads them again. A write by another process changes them, and
  the caller then counts afresh (see ``retrieval/keyword.py``).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["TermStats", "bump", "clear", "generation", "lookup", "store"]

MAX_TERMS = 20_000
"""Counts kept per tenant; past it the tenant's counts start over (no unbounded growth)."""

MAX_TENANTS = 1_000
"""Tenants kept per store; past it the oldest entry goes."""


@dataclass(slots=True)
class TermStats:
    """What the cache knows about one tenant at one snapshot."""

    n_docs: int
    n_tokens: float
    df: dict[str, int] = field(default_factory=dict)
    reached: dict[str, int] = field(default_factory=dict)
    """Terms whose count stopped at its limit (term -> that limit: the term is in at least that many)."""


class _Scope:
    """The entries and generations of one store (one executor)."""

    __slots__ = ("entries", "generations")

    def __init__(self) -> None:
        self.entries: dict[str, TermStats] = {}
        self.generations: dict[str, int] = {}


_lock = threading.Lock()
_scopes: weakref.WeakKeyDictionary[object, _Scope] = weakref.WeakKeyDictionary()


def _scope(owner: object) -> _Scope:
    s = _scopes.get(owner)
    if s is None:
        s = _Scope()
        _scopes[owner] = s
    return s


def generation(owner: object, graph: str) -> int:
    """The tenant's write generation in this process (0 before any write)."""
    with _lock:
        return _scope(owner).generations.get(graph, 0)


def bump(owner: object, graph: str) -> None:
    """A write changed the tenant's memories: forget its statistics.

    Args:
        owner: the store's executor (statistics are kept per store).
        graph: the tenant's graph.
    """
    with _lock:
        s = _scope(owner)
        s.generations[graph] = s.generations.get(graph, 0) + 1
        s.entries.pop(graph, None)


def lookup(
    owner: object, graph: str, terms: Iterable[str], *, limit: int | None = None
) -> tuple[int, TermStats | None, dict[str, int]]:
    """The tenant's generation, its cached snapshot (or None) and the known ``df`` of ``terms``
    as a query counting up to ``limit`` would count them (``limit`` for a term known to be in
    at least that many; a term counted against a lower limit is not known)."""
    with _lock:
        s = _scope(owner)
        gen = s.generations.get(graph, 0)
        entry = s.entries.get(graph)
        if entry is None:
            return gen, None, {}
        known: dict[str, int] = {}
        for t in terms:
            if t in entry.df:
                known[t] = entry.df[t] if limit is None else min(entry.df[t], limit)
            elif t in entry.reached and limit is not None and entry.reached[t] >= limit:
                known[t] = limit
        return gen, TermStats(entry.n_docs, entry.n_tokens), known


def store(
    owner: object,
    graph: str,
    gen: int,
    snapshot: TermStats,
    df: Mapping[str, int],
    *,
    limit: int | None = None,
) -> None:
    """Remember ``df`` (counted at ``snapshot``, up to ``limit``) unless a write happened since
    ``gen`` was read. A count equal to ``limit`` is kept as "at least ``limit``"."""
    with _lock:
        s = _scope(owner)
        if s.generations.get(graph, 0) != gen:
            return
        entry = s.entries.get(graph)
        if entry is None or (entry.n_docs, entry.n_tokens) != (snapshot.n_docs, snapshot.n_tokens):
            entry = TermStats(snapshot.n_docs, snapshot.n_tokens)
            if graph not in s.entries and len(s.entries) >= MAX_TENANTS:
                s.entries.pop(next(iter(s.entries)))
            s.entries[graph] = entry
        if len(entry.df) + len(entry.reached) + len(df) > MAX_TERMS:
            entry.df.clear()
            entry.reached.clear()
        for term, n in df.items():
            if limit is not None and n >= limit:
                entry.reached[term] = max(limit, entry.reached.get(term, 0))
            else:
                entry.df[term] = n
                entry.reached.pop(term, None)


def clear() -> None:
    """Drop every cached statistic (tests and benchmarks measure the cold path with it)."""
    with _lock:
        for s in _scopes.values():
            s.entries.clear()
