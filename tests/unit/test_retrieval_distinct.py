"""Vector results are deduplicated by id, in order, before the cut (FalkorDB #2848)."""

from __future__ import annotations

from falkmem.retrieval.vector import distinct_hits


def test_duplicates_are_dropped_before_the_cut() -> None:
    rows = [
        ({"id": i}, s) for i, s in [("a", 0.9), ("a", 0.9), ("b", 0.8), ("a", 0.7), ("c", 0.6), ("d", 0.5)]
    ]
    assert [(a["id"], s) for a, s in distinct_hits(rows, 3)] == [("a", 0.9), ("b", 0.8), ("c", 0.6)]
    assert distinct_hits([], 3) == []
