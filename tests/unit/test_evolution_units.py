"""Pure parts of falkmem.evolution: keys, rounds, near-duplicates, recency, verdict parsing."""

from __future__ import annotations

import pytest

from falkmem.errors import InputError
from falkmem.evolution.classifier import Verdict, _parse
from falkmem.evolution.consolidate import Candidate, duplicate_pairs, group
from falkmem.evolution.forget import selector
from falkmem.evolution.keys import KeyPolicy, derive_key, fact_hash, normalise_key, rounds
from falkmem.evolution.recency import recency_factor, recency_weighted
from falkmem.extraction.rules import RuleExtractor
from falkmem.llm import InvalidOutput
from falkmem.ranking.fusion import Fused

POLICY = KeyPolicy(frozenset({"reports_to", "holds_role"}), frozenset({"fact"}))


def test_keys_and_hashes() -> None:
    assert normalise_key("  Flight:UA 901 \n:Arrival ") == "flight:ua 901 :arrival"
    with pytest.raises(InputError):
        normalise_key("   ")
    assert fact_hash("Arrives at 12:15.") == fact_hash("arrives   at 12:15") != fact_hash("arrives at 12:16")
    assert len(fact_hash("x")) == 32


def test_derive_key_only_for_one_single_valued_relation_in_a_fact() -> None:
    ex = RuleExtractor().extract("Priya Chandran reports to Marcus Webb.")
    assert derive_key(ex, "fact", POLICY) == (
        "reports_to:priya chandran",
        "reports_to:priya chandran:marcus webb",
    )
    assert derive_key(ex, "episode", POLICY) is None
    two = RuleExtractor().extract("Priya Chandran reports to Marcus Webb. Omar Haddad reports to Ana Lima.")
    assert derive_key(two, "fact", POLICY) is None
    assert derive_key(RuleExtractor().extract("Atlas team built Project Helios."), "fact", POLICY) is None


def test_rounds_keep_one_row_per_key() -> None:
    rows = [
        {"id": 1, "key": "a"},
        {"id": 2, "key": None},
        {"id": 3, "key": "a"},
        {"id": 4, "key": "b"},
        {"id": 5, "key": "a"},
    ]
    assert [[r["id"] for r in rr] for rr in rounds(rows)] == [[1, 2, 4], [3], [5]]


def test_duplicate_pairs_and_groups() -> None:
    items = [
        Candidate("a", "Dana likes tea", [1.0, 0.0, 0.0]),
        Candidate("b", "Dana likes tea!", [0.99, 0.01, 0.0]),
        Candidate("c", "Room 12", [0.0, 1.0, 0.0]),
        Candidate("d", "Room 14", [0.0, 1.0, 0.0]),
        Candidate("e", "dana likes tea", [0.98, 0.02, 0.0]),
    ]
    pairs = duplicate_pairs(items, 0.95)
    assert {(i, j) for i, j, _ in pairs} == {(0, 1), (0, 4), (1, 4)}
    assert group(len(items), pairs) == [[0, 1, 4]]
    assert duplicate_pairs(items[:1], 0.9) == []


def test_recency() -> None:
    day = 86_400.0
    assert recency_factor(None, now=10 * day, half_life_days=1) == 1.0
    assert recency_factor(9 * day, now=10 * day, half_life_days=1) == pytest.approx(0.5)
    ranked = [Fused("old", 1.0), Fused("new", 0.9)]
    rows = {"old": {"valid_at": 0.0}, "new": {"valid_at": 100 * day}}
    assert [f.id for f in recency_weighted(ranked, rows, weight=0.0, half_life_days=30, now=100 * day)] == [
        "old",
        "new",
    ]
    assert [f.id for f in recency_weighted(ranked, rows, weight=0.7, half_life_days=30, now=100 * day)] == [
        "new",
        "old",
    ]


def test_verdict_parsing() -> None:
    assert _parse('```json\n{"relation": " Duplicate "}\n```') == Verdict(relation="duplicate")
    for bad in (None, "", "[]", '{"relation": "maybe"}', "{"):
        with pytest.raises(InvalidOutput):
            _parse(bad)


def test_forget_selector() -> None:
    assert selector("x", None, None).id == "x"
    for args in ((None, None, None), ("x", "s", None), (None, "", None), (None, None, 3)):
        with pytest.raises(InputError):
            selector(*args)
