"""Tests for falkmem.keyword.stats: the per-tenant BM25 statistics cache and its guards."""

from __future__ import annotations

import gc

import pytest

from falkmem.keyword import stats


class Owner:
    """Stands in for an executor: the cache keys stores by object identity, weakly."""


@pytest.fixture
def owner() -> Owner:
    return Owner()


def test_lookup_returns_only_known_terms(owner: Owner) -> None:
    gen, snap, known = stats.lookup(owner, "g", ["a"])
    assert (gen, snap, known) == (0, None, {})
    stats.store(owner, "g", gen, stats.TermStats(10, 100.0), {"a": 3, "b": 0})
    gen, snap, known = stats.lookup(owner, "g", ["a", "b", "c"])
    assert snap is not None and (snap.n_docs, snap.n_tokens) == (10, 100.0)
    assert known == {"a": 3, "b": 0}


def test_bump_drops_the_tenant_and_refuses_stale_stores(owner: Owner) -> None:
    gen, _, _ = stats.lookup(owner, "g", [])
    stats.store(owner, "g", gen, stats.TermStats(10, 100.0), {"a": 3})
    stats.store(owner, "other", 0, stats.TermStats(5, 50.0), {"a": 1})
    stats.bump(owner, "g")
    assert stats.generation(owner, "g") == gen + 1
    assert stats.lookup(owner, "g", ["a"])[1:] == (None, {})
    assert stats.lookup(owner, "other", ["a"])[2] == {"a": 1}  # other tenants keep theirs
    # a query that read the generation before the write does not store what it counted
    stats.store(owner, "g", gen, stats.TermStats(10, 100.0), {"a": 3})
    assert stats.lookup(owner, "g", ["a"])[1] is None


def test_a_new_snapshot_starts_the_counts_over(owner: Owner) -> None:
    stats.store(owner, "g", 0, stats.TermStats(10, 100.0), {"a": 3, "b": 4})
    stats.store(owner, "g", 0, stats.TermStats(11, 109.0), {"a": 4})
    _, snap, known = stats.lookup(owner, "g", ["a", "b"])
    assert snap is not None and snap.n_docs == 11
    assert known == {"a": 4}  # "b" was counted at the old snapshot


def test_stores_are_separate_and_weakly_held() -> None:
    one, two = Owner(), Owner()
    stats.store(one, "g", 0, stats.TermStats(1, 1.0), {"a": 1})
    assert stats.lookup(two, "g", ["a"])[1] is None
    del one
    gc.collect()
    assert all(not isinstance(k, Owner) or k is two for k in list(stats._scopes.keys()))


def test_counts_are_bounded(owner: Owner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats, "MAX_TERMS", 4)
    stats.store(owner, "g", 0, stats.TermStats(1, 1.0), {"a": 1, "b": 1, "c": 1})
    stats.store(owner, "g", 0, stats.TermStats(1, 1.0), {"d": 1, "e": 1})
    assert stats.lookup(owner, "g", list("abcde"))[2] == {"d": 1, "e": 1}


def test_clear_forgets_everything(owner: Owner) -> None:
    stats.store(owner, "g", 0, stats.TermStats(1, 1.0), {"a": 1})
    stats.clear()
    assert stats.lookup(owner, "g", ["a"])[1] is None
