"""Rows to hits: a channel's ``{id, valid_at}`` row never becomes a hit with an empty text."""

from __future__ import annotations

import pytest

from falkmem.storage.rows import hit_from_row, is_whole


def test_a_short_row_is_not_a_hit() -> None:
    short = {"id": "m1", "valid_at": 1.0}
    assert not is_whole(short)
    with pytest.raises(ValueError, match="m1"):
        hit_from_row(short, 0.5)


def test_a_whole_row_is_a_hit_even_with_empty_text() -> None:
    row = {"id": "m1", "text": "", "valid_at": None, "status": "active"}
    assert is_whole(row)
    assert hit_from_row(row, 0.5).text == ""
