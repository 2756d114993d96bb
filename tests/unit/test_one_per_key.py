"""``one_per_key``: a ranking keeps one memory per fact key, the newest version, at the place of
the key's best-ranked version (issue 50: a search's channels can read either side of a
supersession)."""

from __future__ import annotations

from typing import Any

from falkmem.storage.rows import one_per_key


def _row(key: str | None, valid_at: float, created_at: float = 0.0) -> dict[str, Any]:
    return {"text": "x", "key": key, "valid_at": valid_at, "created_at": created_at}


def test_the_newest_version_takes_the_best_place_and_the_others_leave() -> None:
    rows = {
        "old": _row("seat", 10.0), "a": _row(None, 5.0), "new": _row("seat", 20.0),
        "b": _row(None, 6.0), "older": _row("seat", 1.0),
    }  # fmt: skip
    assert one_per_key(["old", "a", "new", "b", "older"], rows) == [
        ("old", "new"), ("a", "a"), ("b", "b")
    ]  # fmt: skip


def test_same_valid_at_falls_back_to_created_at_and_keys_stay_apart() -> None:
    rows = {
        "s1": _row("seat", 10.0, created_at=100.0), "m1": _row("meal", 10.0),
        "s2": _row("seat", 10.0, created_at=101.0), "m2": _row("meal", 9.0),
    }  # fmt: skip
    assert one_per_key(["m2", "s1", "s2", "m1"], rows) == [("m2", "m1"), ("s1", "s2")]


def test_memories_without_a_key_all_stay_in_order() -> None:
    rows = {i: _row(None, float(n)) for n, i in enumerate("cab")}
    assert one_per_key(["c", "a", "b"], rows) == [("c", "c"), ("a", "a"), ("b", "b")]
    assert one_per_key([], rows) == []
