"""Cached term counts under the keyword channel's bound (``keyword_max_df``): a count that stopped
at its limit says only "at least that many"."""

from __future__ import annotations

from falkmem.keyword import stats


class _Owner:
    """Stands for a store's executor (the cache is kept per owner, weakly)."""


def test_a_count_at_its_limit_answers_only_a_query_with_no_higher_limit() -> None:
    owner, g = _Owner(), "g"
    stats.store(owner, g, 0, stats.TermStats(100, 500.0), {"rare": 3, "common": 11}, limit=11)
    # limit 11 again: "common" is known to be at the limit (dropped), "rare" exact
    assert stats.lookup(owner, g, ["rare", "common"], limit=11)[2] == {"rare": 3, "common": 11}
    # a lower limit: both answered (common is over it, rare is exact)
    assert stats.lookup(owner, g, ["rare", "common"], limit=6)[2] == {"rare": 3, "common": 6}
    # a higher limit: "common" might be under it; it must be counted again
    assert stats.lookup(owner, g, ["rare", "common"], limit=50)[2] == {"rare": 3}


def test_an_exact_count_over_a_later_limit_reads_as_that_limit() -> None:
    owner, g = _Owner(), "g"
    stats.store(owner, g, 0, stats.TermStats(100, 500.0), {"word": 40}, limit=1001)
    assert stats.lookup(owner, g, ["word"], limit=11)[2] == {"word": 11}
    assert stats.lookup(owner, g, ["word"])[2] == {"word": 40}


def test_a_recount_replaces_a_count_that_reached_its_limit() -> None:
    owner, g = _Owner(), "g"
    stats.store(owner, g, 0, stats.TermStats(100, 500.0), {"word": 11}, limit=11)
    stats.store(owner, g, 0, stats.TermStats(100, 500.0), {"word": 40}, limit=1001)
    assert stats.lookup(owner, g, ["word"], limit=1001)[2] == {"word": 40}
    stats.bump(owner, g)
    assert stats.lookup(owner, g, ["word"], limit=1001)[1] is None
