"""Tests for falkmem.context.pack: budgets, dedupe, sentence selection, ordering, provenance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.context import ContextItem, RegexTokenCounter, pack, refers_back
from falkmem.errors import InputError

COUNTER = RegexTokenCounter()
T0 = datetime(2026, 3, 1, 9, 30)


class CharCounter:
    """One token per character: a non-additive-looking but simple counter."""

    name = "chars"

    def count(self, text: str) -> int:
        return len(text)


def item(i: str, text: str, score: float, **kw: object) -> ContextItem:
    return ContextItem(i, text, score, **kw)  # type: ignore[arg-type]


def test_line_format_and_provenance() -> None:
    items = [
        item("m1", "Ana leads Helios.", 0.9, session="s-7", at=T0),
        item("m2", "Bob  manages\nAna.", 0.5),
        item(
            "m3",
            "Helios ships in May.",
            0.4,
            at=datetime(2026, 3, 2, 8, 0, tzinfo=timezone(timedelta(hours=2))),
        ),
    ]
    out = pack("who leads helios", items, budget_tokens=200, counter=COUNTER)
    assert out.text.splitlines() == [
        "- Ana leads Helios. [m1 · s-7 · 2026-03-01 09:30]",
        "- Bob manages Ana. [m2]",
        "- Helios ships in May. [m3 · 2026-03-02 06:00]",  # aware times render in UTC
    ]
    assert out.used == ("m1", "m2", "m3")
    assert out.dropped == ()
    assert out.tokens == COUNTER.count(out.text) <= 200
    assert not out.chronological


def test_budget_must_be_positive() -> None:
    for bad in (0, -5):
        with pytest.raises(InputError) as err:
            pack("q", [], budget_tokens=bad, counter=COUNTER)
        assert err.value.field == "budget_tokens"


def test_tiny_budget_gives_empty_text() -> None:
    out = pack("q", [item("m1", "Ana leads Helios.", 1.0)], budget_tokens=1, counter=COUNTER)
    assert out.text == "" and out.tokens == 0
    assert out.used == () and out.dropped == ("m1",)


def test_dedupe_keeps_higher_score() -> None:
    items = [
        item("low", "Ana leads Helios", 0.2),
        item("high", "  ana LEADS helios. ", 0.8),
        item("other", "Bob manages Ana.", 0.5),
    ]
    out = pack("helios", items, budget_tokens=100, counter=COUNTER)
    assert out.used == ("high", "other")
    assert out.dropped == ("low",)


def test_superseded_dropped_unless_history_asked() -> None:
    items = [
        item("old", "Ana led Helios.", 0.9, at=T0, superseded=True),
        item("new", "Cy leads Helios.", 0.8, at=T0 + timedelta(days=30)),
    ]
    now = pack("who leads helios", items, budget_tokens=100, counter=COUNTER)
    assert now.used == ("new",) and now.dropped == ("old",)
    history = pack("who led helios before", items, budget_tokens=100, counter=COUNTER)
    assert history.used == ("old", "new") and history.chronological


def test_long_item_keeps_only_matching_sentences() -> None:
    text = (
        "The quarterly offsite was long and covered many unrelated topics in detail. "
        "Ana confirmed Helios launches on May 4. "
        "Lunch was served at noon and everyone enjoyed the weather outside."
    )
    items = [item("m1", text, 1.0)]
    full = pack("when does helios launch", items, budget_tokens=500, counter=COUNTER)
    assert full.partial == ()
    budget = full.tokens - 5
    out = pack("when does helios launch", items, budget_tokens=budget, counter=COUNTER)
    assert out.used == ("m1",) and out.partial == ("m1",)
    assert out.text == "- Ana confirmed Helios launches on May 4. [m1]"
    assert out.tokens <= budget


def test_skips_what_does_not_fit_and_keeps_packing_smaller_ones() -> None:
    items = [
        item("a", "Alpha fact about helios.", 0.9),
        item("b", "A much longer unrelated memory about gardening and cooking " * 3, 0.8),
        item("c", "Tiny.", 0.1),
    ]
    out = pack("helios", items, budget_tokens=15, counter=COUNTER)
    assert out.used == ("a", "c")  # "b" fits neither whole nor by sentences: skipped, not a stop
    assert out.dropped == ("b",)
    assert out.tokens <= 15


def test_one_long_memory_at_rank_two_does_not_empty_the_rest() -> None:
    # one long sentence that names helios: it fits neither whole nor as its matching sentences
    long_text = "Helios kickoff notes" + ", then filler about the office move and parking" * 40 + "."
    items = [
        item("m1", "Ana leads Helios.", 0.9),
        item("m2", long_text, 0.8),
        *(item(f"m{i}", f"Helios fact number {i}.", 0.8 - i / 100) for i in range(3, 8)),
    ]
    budget = 60
    out = pack("who is on helios", items, budget_tokens=budget, counter=COUNTER)
    assert out.tokens <= budget
    assert out.used == ("m1", "m3", "m4", "m5", "m6", "m7")
    assert out.dropped == ("m2",)


def test_chronological_order_when_query_refers_back() -> None:
    items = [
        item("late", "Budget raised to 2M.", 0.9, at=T0 + timedelta(days=10)),
        item("undated", "Budget is tracked monthly.", 0.8),
        item("early", "Budget set to 1M.", 0.5, at=T0),
    ]
    auto = pack("how has the budget changed?", items, budget_tokens=100, counter=COUNTER)
    assert auto.chronological and auto.used == ("early", "late", "undated")
    by_score = pack("what is the budget", items, budget_tokens=100, counter=COUNTER)
    assert not by_score.chronological and by_score.used == ("late", "undated", "early")
    forced = pack("what is the budget", items, budget_tokens=100, counter=COUNTER, chronological=True)
    assert forced.used == ("early", "late", "undated")
    mixed = [
        item("aware", "x one", 1.0, at=datetime(2026, 1, 1, tzinfo=UTC)),
        item("naive", "y two", 0.5, at=T0),
    ]
    assert pack("q", mixed, budget_tokens=100, counter=COUNTER, chronological=True).used == ("aware", "naive")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did we decide last time?", True),
        ("What changed in the Helios plan?", True),
        ("Show the history of the budget", True),
        ("When did Ana join?", True),
        ("What was said earlier about pricing?", True),
        ("Any update on the launch?", True),
        ("Who leads Project Helios?", False),
        ("What is Ana's email address?", False),
    ],
)
def test_refers_back(query: str, expected: bool) -> None:
    assert refers_back(query) is expected


def test_connections_rendered_deduped_and_only_if_they_fit() -> None:
    items = [
        item("m1", "Ana leads Helios.", 0.9, triples=(("Ana", "LEADS", "Helios"), ("Bob", "MANAGES", "Ana"))),
        item("m2", "Bob manages Ana.", 0.5, triples=(("bob", "manages", "ana"),)),
    ]
    out = pack("who manages the helios lead", items, budget_tokens=200, counter=COUNTER)
    assert out.text.endswith("Connections:\nAna -LEADS-> Helios\nBob -MANAGES-> Ana")
    assert out.triples_rendered == 2
    body = pack("q", items, budget_tokens=200, counter=COUNTER).text.split("\nConnections:")[0]
    tight = pack("q", items, budget_tokens=COUNTER.count(body), counter=COUNTER)
    assert "Connections" not in tight.text and tight.triples_rendered == 0
    assert tight.used == ("m1", "m2")


def test_any_counter_is_respected() -> None:
    items = [item(f"m{i}", f"Memory number {i} about helios.", 1.0 - i / 10) for i in range(5)]
    out = pack("helios", items, budget_tokens=80, counter=CharCounter())
    assert len(out.text) <= 80 and out.tokens == len(out.text)
    assert out.used == ("m0", "m1")


words = st.sampled_from(
    ["helios", "ana", "budget", "launch", "the", "May", "2026", "x", "über", "東京", "ok.", "why?", "🎉"]
)
texts = st.lists(words, min_size=0, max_size=40).map(" ".join)
triples = st.tuples(words, st.sampled_from(["LEADS", "MANAGES"]), words)
items_st = st.lists(
    st.builds(
        ContextItem,
        id=st.text("abc123", min_size=1, max_size=4),
        text=texts,
        score=st.floats(-10, 10, allow_nan=False),
        session=st.one_of(st.none(), st.text("s12", min_size=1, max_size=3)),
        at=st.one_of(st.none(), st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2030, 1, 1))),
        kind=st.just("episode"),
        triples=st.lists(triples, max_size=3).map(tuple),
        superseded=st.booleans(),
    ),
    max_size=12,
)


@settings(max_examples=250, deadline=None)
@given(
    items_st,
    st.integers(min_value=1, max_value=300),
    texts,
    st.sampled_from([None, True, False]),
    st.sampled_from([COUNTER, CharCounter()]),
)
def test_budget_is_never_exceeded(
    items: list[ContextItem], budget: int, query: str, chrono: bool | None, counter: object
) -> None:
    out = pack(query, items, budget_tokens=budget, counter=counter, chronological=chrono)  # type: ignore[arg-type]
    assert out.tokens == counter.count(out.text) <= budget  # type: ignore[attr-defined]
    assert len(set(out.used)) == len(out.used)
    assert not set(out.used) & set(out.dropped)
    assert set(out.used) | set(out.dropped) == {i.id for i in items}
    assert set(out.partial) <= set(out.used)
    if not out.used:
        assert out.text == ""
    assert out.text.count("\n- ") + (1 if out.text.startswith("- ") else 0) == len(out.used)


class LyingCounter:
    """Claims to be additive but charges 5 extra tokens per newline."""

    name = "liar"
    additive = True

    def count(self, text: str) -> int:
        return COUNTER.count(text) + 5 * text.count("\n")


def test_counter_wrongly_claiming_additivity_still_respects_budget() -> None:
    items = [item(f"m{i}", f"Memory number {i} about helios.", 1.0 - i / 10) for i in range(6)]
    budget = 40
    out = pack("helios", items, budget_tokens=budget, counter=LyingCounter())
    assert out.tokens == LyingCounter().count(out.text) <= budget
    assert len(out.used) >= 1
    # the additive fast path gives the same result as exact counting for an honest counter
    fast = pack("helios", items, budget_tokens=budget, counter=COUNTER)
    exact = pack("helios", items, budget_tokens=budget, counter=CharCounterTimes(1))
    assert fast.tokens <= budget and exact.tokens <= budget


class CharCounterTimes:
    """Non-additive-declared counter: exact path."""

    name = "chars-times"

    def __init__(self, factor: int) -> None:
        self.factor = factor

    def count(self, text: str) -> int:
        return COUNTER.count(text) * self.factor


def test_additive_fast_path_matches_exact_path() -> None:
    items = [
        item(f"m{i}", f"Memory {i}: helios budget review. Unrelated filler sentence here.", 1.0 - i / 20)
        for i in range(15)
    ]
    for budget in (5, 30, 80, 200):
        fast = pack("helios budget", items, budget_tokens=budget, counter=COUNTER)
        exact = pack("helios budget", items, budget_tokens=budget, counter=CharCounterTimes(1))
        assert fast == exact
