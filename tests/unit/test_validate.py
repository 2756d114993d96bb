"""Record validation rules (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from falkmem import InputError, LimitExceeded, Settings
from falkmem.ingest.validate import prepare, to_timestamp

S = Settings.load()


def test_a_good_record_is_normalised() -> None:
    p = prepare(
        {"text": "hello", "metadata": {"b": 1, "a": [1, 2]}, "at": "2026-03-01T10:05:00Z"}, S, now=1.0
    )
    assert p.metadata == '{"a": [1, 2], "b": 1}'
    assert p.valid_at == datetime(2026, 3, 1, 10, 5, tzinfo=UTC).timestamp()
    assert len(p.id) == 32


def test_naive_datetimes_are_utc() -> None:
    assert to_timestamp(datetime(2026, 1, 1), "at", default=0) == datetime(2026, 1, 1, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("record", "field", "error"),
    [
        ({"text": ""}, "text", InputError),
        ({"text": "a\x00b"}, "text", InputError),
        ({"text": "x", "id": ""}, "id", InputError),
        ({"text": "x", "id": "i" * 300}, "id", InputError),
        ({"text": "x", "session": ""}, "session", InputError),
        ({"text": "x", "speaker": "s" * 300}, "speaker", LimitExceeded),
        ({"text": "x", "entities": ["e"] * 101}, "entities", LimitExceeded),
        ({"text": "x", "triples": [("a", "b", "c")] * 101}, "triples", LimitExceeded),
        ({"text": "x", "triples": [("a", "", "c")]}, "triples", InputError),
        ({"text": "x", "embedding": [float("nan")] * 3}, "embedding", InputError),
        ({"text": "x", "metadata": {"x": float("nan")}}, "metadata", InputError),
        ({"text": 5}, "text", InputError),
        ("just a string", "record", InputError),
    ],
)
def test_rules(record: object, field: str, error: type[Exception]) -> None:
    with pytest.raises(error) as err:
        prepare(record, S, now=0.0)  # type: ignore[arg-type]
    assert err.value.field == field  # type: ignore[attr-defined]
