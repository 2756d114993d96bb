"""The write-layer caps (issue 15): every indexed string bounded, stable keys for long extracted names."""

from __future__ import annotations

from typing import Any

import pytest

from falkmem.errors import InputError
from falkmem.ingest import caps
from falkmem.ingest.validate import prepare
from falkmem.settings import Settings
from falkmem.text.keys import canonical_key


def _row(**kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"id": "a", "session": None, "user": None, "agent": None, "key": None,
                           "entities": [], "triples": []}  # fmt: skip
    row.update(kw)
    return row


@pytest.mark.parametrize("ch", ["a", "é", "🎉", "\u0301"])
def test_stable_key_fits_is_stable_and_distinct(ch: str) -> None:
    long_a, long_b = "x" + ch * 20_000, "x" + ch * 20_001
    ka, kb = caps.stable_key(long_a), caps.stable_key(long_b)
    assert caps.size(ka) <= caps.KEY_MAX_BYTES and caps.size(kb) <= caps.KEY_MAX_BYTES
    assert ka == caps.stable_key(long_a) and ka != kb  # same name, same entity; else not
    assert ka.startswith("x") and (ka + "x").encode().decode() == ka + "x"  # no split character


def test_short_keys_and_names_are_untouched() -> None:
    key = "é" * (caps.KEY_MAX_BYTES // 2)
    assert caps.stable_key(key) == key and caps.short_name(key) == key
    assert caps.stable_key(key + "e") != key + "e"


def test_stable_key_of_a_canonical_key_is_canonical() -> None:
    k = caps.stable_key(canonical_key("Victim" + "a" * 5000))
    assert canonical_key(k) == k


def test_enforce_caps_extracted_entities_and_keeps_triples_consistent() -> None:
    p = prepare({"text": "t"}, Settings.load(), now=0.0)
    long_key = "victim" + "a" * 5000
    row = _row(
        entities=[{"key": long_key, "name": "Victim" + "a" * 5000, "type": "other"}],
        triples=[
            {
                "subject": long_key,
                "subject_name": "V" * 5000,
                "relation": "related_to",
                "object": "bob",
                "object_name": "Bob",
                "weight": 1.0,
                "label": "l" * 5000,
            }
        ],
        key="reports_to:" + long_key,
    )
    caps.enforce(row, p)
    e, t = row["entities"][0], row["triples"][0]
    assert e["key"] == t["subject"] == caps.stable_key(long_key)
    for value in (e["key"], e["name"], t["subject_name"], t["label"], row["key"]):
        assert caps.size(value) <= caps.KEY_MAX_BYTES
    assert t["object"] == "bob" and t["object_name"] == "Bob"


@pytest.mark.parametrize(
    ("field", "record"),
    [
        ("entities", {"entities": ["\ufdfa" * 256]}),
        ("triples", {"triples": [("Bob Stone", "knows", "\ufdfa" * 256)]}),
        ("key", {"key": "\ufdfa" * 256}),
    ],
)
def test_caller_value_over_the_cap_is_an_input_error(field: str, record: dict[str, Any]) -> None:
    with pytest.raises(InputError) as err:
        prepare({"text": "t", **record}, Settings.load(), now=0.0)
    assert err.value.field == field and "docs/limits.md" in str(err.value)


def test_enforce_refuses_an_over_long_caller_key_even_without_validation() -> None:
    p = prepare({"text": "t", "key": "k"}, Settings.load(), now=0.0)
    with pytest.raises(InputError) as err:
        caps.enforce(_row(key="k" * 5000), p)
    assert err.value.field == "key"


@pytest.mark.parametrize("rid", ["0 ", " 0", "launch-notes\u00a0", "\u2003x"])
def test_an_id_with_white_space_at_an_end_is_an_input_error(rid: str) -> None:
    # FalkorDB 4.22.1 segfaults writing such a value under a unique constraint (Artifact.id)
    with pytest.raises(InputError) as err:
        prepare({"text": "t", "id": rid}, Settings.load(), now=0.0)
    assert err.value.field == "id" and "white space" in str(err.value)
    assert prepare({"text": "t", "id": "a b"}, Settings.load(), now=0.0).id == "a b"  # inside is fine
