"""Tests for falkmem.context.pack: budgets, labels and sources, sentence choice, chains, sessions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.config import PackingConfig as Weights
from falkmem.context import ContextItem, RegexTokenCounter, pack, refers_back
from falkmem.context.sentences import analyse
from falkmem.context.signals import asks_for, chain_names
from falkmem.errors import InputError
from falkmem.routing.who import asks_the_assistant

COUNTER = RegexTokenCounter()
T0 = datetime(2026, 3, 1, 9, 30)
LINE = re.compile(r"^\[(\d+)\] ")


class CharCounter:
    """One token per character: a counter that does not claim to be additive."""

    name = "chars"

    def count(self, text: str) -> int:
        return len(text)


def item(i: str, text: str, score: float, **kw: object) -> ContextItem:
    return ContextItem(i, text, score, **kw)  # type: ignore[arg-type]


def test_lines_carry_short_labels_and_sources_the_full_provenance() -> None:
    items = [
        item("m1", "Ana leads Helios.", 0.9, session="s-7", at=T0, kind="fact"),
        item("m2", "Bob  manages\nAna.", 0.5, kind="fact"),
        item(
            "m3",
            "Helios ships in May.",
            0.4,
            at=datetime(2026, 3, 2, 8, 0, tzinfo=timezone(timedelta(hours=2))),
            kind="fact",
        ),
    ]
    out = pack("who leads helios", items, budget_tokens=200, counter=COUNTER)
    assert out.text.splitlines() == [
        "[1] Ana leads Helios.",  # facts: their time is when they were stored, no date
        "[2] Bob manages Ana.",  # a line break ends a sentence; both sentences kept
        "[3] Helios ships in May.",
    ]
    assert out.used == ("m1", "m2", "m3") and out.dropped == ()
    assert [(s.label, s.ids, s.session) for s in out.sources] == [("1", ("m1",), "s-7"), ("2", ("m2",), None),
                                                                  ("3", ("m3",), None)]  # fmt: skip
    assert out.sources[2].times == (datetime(2026, 3, 2, 6, 0, tzinfo=UTC),)  # aware times in UTC
    assert out.sources[0].legend() == "[1] m1 · s-7 · 2026-03-01 09:30"
    assert out.tokens == COUNTER.count(out.text) <= 200 and not out.chronological


def test_provenance_costs_a_few_tokens() -> None:
    long_id = "0f3a9c2e4b5d6e7f8a9b0c1d2e3f4a5b"
    items = [item(long_id, "The Lisbon flight TP 1234 lands at 11:40.", 1.0, session="s-booking", at=T0)]
    labels = pack("when does the flight land", items, budget_tokens=100, counter=COUNTER)
    assert labels.tokens <= COUNTER.count("The Lisbon flight TP 1234 lands at 11:40.") + 3


def test_dates_only_when_they_tell_memories_apart() -> None:
    turns = [
        item("t1", "I booked the Lisbon hotel.", 0.9, session="a", speaker="user", at=T0, kind="episode"),
        item("t2", "Dinner is at 8 in Lisbon.", 0.8, session="b", speaker="user", at=T0 + timedelta(days=3)),
    ]
    out = pack("lisbon", turns, budget_tokens=100, counter=COUNTER)
    assert out.text.splitlines() == ["[1] 1 Mar 2026 user: I booked the Lisbon hotel.",
                                     "[2] 4 Mar 2026 user: Dinner is at 8 in Lisbon."]  # fmt: skip
    same_day = [turns[0], item("t3", "Lunch in Lisbon.", 0.5, session="c", at=T0 + timedelta(hours=2))]
    assert "Mar" not in pack("lisbon", same_day, budget_tokens=100, counter=COUNTER).text


def test_turns_of_one_session_share_a_line_and_a_label() -> None:
    items = [
        item("u1", "I booked TP 1234 to Lisbon.", 0.9, session="s1", speaker="user", at=T0),
        item("a1", "Great! Your code is QX7RTP.", 0.7, session="s1", speaker="assistant", at=T0 + timedelta(minutes=1)),
        item("x", "Renewed the car insurance.", 0.8, session="s2", speaker="user", at=T0 + timedelta(days=1)),
    ]  # fmt: skip
    out = pack("Lisbon booking code", items, budget_tokens=200, counter=COUNTER)
    first = out.text.splitlines()[0]
    assert first == "[1] 1 Mar 2026 user: I booked TP 1234 to Lisbon. assistant: Great! Your code is QX7RTP."
    assert out.sources[0].ids == ("u1", "a1") and out.sources[0].session == "s1"


def test_a_speaker_prefix_in_the_text_is_not_repeated() -> None:
    out = pack("skiing", [item("d1", "Emi: I went skiing today.", 1.0, speaker="emi")], budget_tokens=50,
               counter=COUNTER)  # fmt: skip
    assert out.text == "[1] emi: I went skiing today."


def test_budget_must_be_valid() -> None:
    for bad in (0, -5):
        with pytest.raises(InputError) as err:
            pack("q", [], budget_tokens=bad, counter=COUNTER)
        assert err.value.field == "budget_tokens"


def test_tiny_budget_gives_empty_text() -> None:
    out = pack("q", [item("m1", "Ana leads Helios.", 1.0)], budget_tokens=1, counter=COUNTER)
    assert out.text == "" and out.tokens == 0
    assert out.used == () and out.dropped == ("m1",)


def test_duplicates_and_near_duplicates_keep_the_better_ranked() -> None:
    items = [
        item("low", "Ana leads Helios", 0.2),
        item("high", "  ana LEADS helios. ", 0.8),
        item("other", "Bob manages the Helios budget and the Atlas launch plan for Q3.", 0.5),
        item("near", "Bob manages the Helios budget and the Atlas launch plan for Q3!!", 0.4),
        item("numbers", "Bob manages the Helios budget and the Atlas launch plan for Q4.", 0.3),
    ]
    out = pack("helios", items, budget_tokens=200, counter=COUNTER)
    assert out.used == ("high", "other", "numbers")  # a different number says something else
    assert out.dropped == ("near", "low")


def test_superseded_dropped_unless_history_asked() -> None:
    items = [
        item("old", "Ana led Helios.", 0.9, at=T0, superseded=True),
        item("new", "Cy leads Helios.", 0.8, at=T0 + timedelta(days=30)),
    ]
    now = pack("who leads helios", items, budget_tokens=100, counter=COUNTER)
    assert now.used == ("new",) and now.dropped == ("old",)
    history = pack("who led helios before", items, budget_tokens=100, counter=COUNTER)
    assert history.used == ("old", "new") and history.chronological


def test_a_long_memory_keeps_the_sentences_that_answer() -> None:
    text = (
        "The quarterly offsite was long and covered many unrelated topics in detail. "
        "Ana confirmed Helios launches on May 4. "
        "Lunch was served at noon and everyone enjoyed the weather outside."
    )
    items = [item("m1", text, 1.0), item("m2", "The parking garage closes at 9 in the evening.", 0.5)]
    out = pack("when does helios launch", items, budget_tokens=14, counter=COUNTER)
    assert out.text == "[1] Ana confirmed Helios launches on May 4."
    assert out.partial == ("m1",) and out.sources[0].partial == ("m1",)
    assert pack("when does helios launch", items, budget_tokens=500, counter=COUNTER).partial == ()


def test_a_sentence_that_leans_back_comes_with_the_one_before() -> None:
    text = (
        "The board met on Tuesday to review the vendor shortlist. "
        "Acme Corp was chosen as the Helios supplier after a long debate. "
        "However, the contract is capped at 2M dollars for the Helios launch."
    )
    out = pack("helios contract cap", [item("m1", text, 1.0)], budget_tokens=35, counter=COUNTER)
    assert out.text == (
        "[1] Acme Corp was chosen as the Helios supplier after a long debate. "
        "However, the contract is capped at 2M dollars for the Helios launch."
    )


def test_a_numbered_list_of_short_items_is_taken_whole_or_not_at_all() -> None:
    # "Here are some names: 1. Radik" would say Radik was the name offered, and "2. Irradon"
    # alone says nothing: a short numbered list comes whole with its header, or stays out.
    names = ["Radik", "Irradon", "Nucleus", "Fissionator", "Radiatron"]
    listed = "\n".join(f"{n}. {w}" for n, w in enumerate(names, 1))
    text = (
        f"Sure, here are some one-word names for the Radiation Amplified:\n\n{listed}\n\nI hope these help!"
    )
    about = (
        "The Radiation Amplified is a zombie mutated by radiation. It has glowing green eyes and a "
        "toxic aura. Its attacks cause radiation poisoning that blurs the screen."
    )
    q = "what name for the Radiation Amplified zombie"
    for budget in (40, 50, 60, 70, 90):
        out = pack(q, [item("m0", about, 1.0), item("m1", text, 0.9)], budget_tokens=budget, counter=COUNTER)
        shown = [w for w in names if w in out.text]
        assert shown in ([], names), (budget, out.text)
        if budget >= 60:
            assert (
                "names for the Radiation Amplified: 1. Radik 2. Irradon 3. Nucleus 4. Fissionator 5. Radiatron"
                in out.text
            )
    steps = "\n".join(f"{n}. {w}" for n, w in enumerate([
        "Start slow and keep the first mile easier than you think you need to.",
        "Use a timer or a running app to track your pace on every run.",
    ], 1))  # fmt: skip
    out = pack("how to pace yourself runs", [item("m2", f"How to pace yourself during the runs:\n{steps}", 1.0)],
               budget_tokens=30, counter=COUNTER)  # fmt: skip
    assert out.text.startswith("[1] How to pace yourself during the runs: 1. Start slow"), out.text
    assert "2. Use a timer" not in out.text  # long items: the header comes with the first only


def test_a_fact_restated_with_other_numbers_is_an_update_not_a_repeat() -> None:
    # The user's later turn says what the count became. Its words are the earlier turn's, so as
    # a repetition it counted half and a chart row took its place; with other numbers it is news.
    q = "How many free night's stays can I redeem at any Hilton property with my accumulated points?"
    t = datetime(2023, 5, 29, 10)
    items = [
        item("a1", "I'm considering redeeming my Hilton points for this stay. I've accumulated enough points "
             "for a single free night's stay at any Hilton property.", 3.0, session="s1", at=t, speaker="user"),
        item("a2", "Here's a rough estimate of the points required for a free night: Category 1: 5,000 - 10,000 "
             "points. Category 2: 10,000 - 20,000 points. Category 3: 20,000 - 30,000 points.", 2.0,
             session="s1", at=t, speaker="assistant"),
        item("b1", "I'm planning a trip to Europe in November and considering hotels in Paris. By the way, I've "
             "accumulated enough points for two free night's stays at any Hilton property, so I might use "
             "that for a separate trip to Las Vegas.", 1.0, session="s2", at=t + timedelta(days=1), speaker="user"),
    ]  # fmt: skip
    out = pack(q, items, budget_tokens=100, counter=COUNTER)
    assert "a single free night's stay" in out.text and "two free night's stays" in out.text, out.text
    assert "Category" not in out.text


def test_the_second_hop_is_found_through_the_bridge_entity() -> None:
    # The question names Helios; the answer (Marcus Webb) is in a memory reached through the
    # bridge "Priya Chandran" and shares no word with the question.
    items = [
        item("h1", "Priya Chandran leads the team that built Project Helios.", 1.0),
        item("d1", "The cafeteria menu changed on Monday.", 0.9),
        item("d2", "Parking is free after six.", 0.8),
        item("h2", "Priya Chandran reports to Marcus Webb.", 0.7, via=("Priya Chandran",)),
    ]
    q = "Who manages the person who leads the team that built Project Helios?"
    budget = COUNTER.count("[1] Priya Chandran leads the team that built Project Helios.") + 12
    out = pack(q, items, budget_tokens=budget, counter=COUNTER)
    assert "Marcus Webb" in out.text, out.text


def test_a_bridge_counts_as_much_as_the_memory_it_led_to() -> None:
    # Every graph hit's bridge entities are chain names, but "Ohio" only led to the tenth
    # candidate: the first passage's sentences about Ohio must not outweigh the passage the
    # bridge "Kansas" (the second hop's) leads to. Counted whole (chain_half=None), the Ohio
    # sentences fill the budget and the answer (4 districts) is left out.
    items = [
        item("w", "Henry Worrall (artist)\nHenry Worrall was an American visual artist and musician in Ohio and "
                  "Kansas. In Ohio he taught guitar at the Ohio Female College and co-founded the Cincinnati "
                  "Sketch Club. He died in Kansas in 1902.", 1.0, via=("Henry Worrall",)),
        item("m", "Missouri's 8th congressional district\nMissouri's 8th Congressional District is one of eight "
                  "congressional districts in the state of Missouri.", 0.9, via=("Missouri",)),
        item("k", "Kansas's congressional districts\nKansas is currently divided into 4 congressional districts, "
                  "each represented by a member of the House.", 0.8, via=("Kansas",)),
        *(item(f"f{i}", f"Filler passage {i}\nA village of {i} hundred people lies in the valley of the river.",
               0.7 - i / 100) for i in range(6)),
        item("o", "District of Ohio\nThe District of Ohio was a federal judicial district of the United States.",
             0.5, via=("Ohio",)),
    ]  # fmt: skip
    q = "The state where Henry Worrall died has how many congressional districts?"
    out = pack(q, items, budget_tokens=110, counter=COUNTER)
    assert "4 congressional districts" in out.text, out.text
    whole = pack(q, items, budget_tokens=110, counter=COUNTER, weights=Weights(chain_half=None))
    assert "4 congressional districts" not in whole.text, whole.text


def test_chain_names_weigh_a_bridge_by_the_best_memory_it_led_to() -> None:
    texts = ["Knott\nKnott is a mountain in the Lake District.", "Lake District\nIt is in Cumbria."]
    analyses = [analyse(t) for t in texts]
    via = [("Ohio", 0.1), ("Kansas", 1.0), ("Ohio", 0.5), ("Knott", 1.0), ("Atlantis", 0.05)]
    got = chain_names(via, analyses, "Where is Knott?")
    # Knott is asked; Ohio keeps its heaviest weight; a title another candidate names counts
    # whole; a bridge that led only to a memory far down (weight under 0.1) is no chain name
    assert got == {"ohio": 0.5, "kansas": 1.0, "lake district": 1.0}


def test_chronological_order_when_query_refers_back() -> None:
    items = [
        item("late", "Budget raised to 2M.", 0.9, at=T0 + timedelta(days=10)),
        item("undated", "Budget is tracked monthly.", 0.8),
        item("early", "Budget set to 1M.", 0.5, at=T0),
    ]
    auto = pack("how has the budget changed?", items, budget_tokens=100, counter=COUNTER)
    assert auto.chronological and auto.used == ("early", "late", "undated")
    assert auto.text.splitlines()[0] == "[1] 1 Mar 2026 Budget set to 1M."  # dates once ordered by time
    by_rank = pack("what is the budget", items, budget_tokens=100, counter=COUNTER)
    assert not by_rank.chronological and by_rank.used == ("late", "undated", "early")


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


def test_connections_compete_for_tokens() -> None:
    items = [
        item("m1", "Ana leads Helios.", 0.9, triples=(("Ana", "LEADS", "Helios"), ("Bob", "MANAGES", "Ana"))),
        item("m2", "Bob manages Ana.", 0.5, triples=(("bob", "manages", "ana"),)),
    ]
    out = pack("who manages the helios lead", items, budget_tokens=200, counter=COUNTER)
    assert out.text.endswith("Connections: Ana -LEADS-> Helios; Bob -MANAGES-> Ana")
    assert out.triples_rendered == 2  # the lower-case duplicate of the second is dropped
    tight = pack("who manages the helios lead", items, budget_tokens=30, counter=COUNTER)
    assert tight.tokens <= 30 and tight.triples_rendered == 1 and tight.used == ("m1", "m2")


def test_any_counter_is_respected() -> None:
    items = [item(f"m{i}", f"Memory number {i} about helios.", 1.0 - i / 10) for i in range(5)]
    out = pack("helios", items, budget_tokens=80, counter=CharCounter())
    assert len(out.text) <= 80 and out.tokens == len(out.text)
    assert len(out.used) == 2


def test_weights_change_the_choice() -> None:
    items = [
        item("top", "Helios kickoff notes: the room was booked.", 1.0),
        item("low", "The Helios launch date is May 4.", 0.1),
    ]
    budget = 14  # one memory fits, not both ("notes: " counts a label colon)
    default = pack("helios launch date", items, budget_tokens=budget, counter=COUNTER)
    assert default.used == ("low",)  # the question's words win over the rank
    rank_only = pack("helios launch date", items, budget_tokens=budget, counter=COUNTER,
                     weights=Weights(lexical=0.0, answer_type=0.0, lead=0.0))  # fmt: skip
    assert rank_only.used == ("top",)


words = st.sampled_from(
    [
        "helios",
        "ana",
        "budget",
        "launch",
        "the",
        "May",
        "2026",
        "x",
        "über",
        "東京",
        "ok.",
        "why?",
        "🎉",
        "It",
        "\n",
    ]
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
        speaker=st.one_of(st.none(), st.sampled_from(["user", "Ana"])),
        via=st.lists(words, max_size=2).map(tuple),
    ),
    max_size=12,
)


@settings(max_examples=250, deadline=None)
@given(
    items_st,
    st.integers(min_value=1, max_value=300),
    texts,
    st.sampled_from(["", "what changed: "]),  # lines by rank, or by time (the query refers back)
    st.sampled_from([COUNTER, CharCounter()]),
)
def test_budget_is_never_exceeded(
    items: list[ContextItem], budget: int, query: str, back: str, counter: object
) -> None:
    out = pack(back + query, items, budget_tokens=budget, counter=counter)  # type: ignore[arg-type]
    assert out.tokens == counter.count(out.text) <= budget  # type: ignore[attr-defined]
    assert len(set(out.used)) == len(out.used)
    assert not set(out.used) & set(out.dropped)
    assert set(out.used) | set(out.dropped) == {i.id for i in items}
    assert set(out.partial) <= set(out.used)
    assert [i for s in out.sources for i in s.ids] == list(out.used)
    if not out.used:
        assert out.text == ""
    labels = [m.group(1) for ln in out.text.splitlines() if (m := LINE.match(ln))]
    assert (
        labels[: len(out.sources)]
        == [s.label for s in out.sources]
        == [str(n + 1) for n in range(len(out.sources))]
    )


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


class Recount:
    """The default counter's counts, without its additivity claim: the exact path."""

    name = "recount"

    def count(self, text: str) -> int:
        return COUNTER.count(text)


def test_additive_fast_path_matches_exact_path() -> None:
    items = [
        item(f"m{i}", f"Memory {i}: helios budget review. Unrelated filler sentence here.", 1.0 - i / 20)
        for i in range(15)
    ]
    for budget in (5, 30, 80, 200):
        fast = pack("helios budget", items, budget_tokens=budget, counter=COUNTER)
        exact = pack("helios budget", items, budget_tokens=budget, counter=Recount())
        assert fast == exact


_PIECE = re.compile(r"\w+|[^\w\s]")
_RUN = re.compile(r"[A-Za-z]+|[0-9]+|.", re.DOTALL)
"""The counter's definition: words and symbols, and inside a word runs of ASCII letters, runs of
ASCII digits, anything else one by one."""


def _slow_count(text: str) -> int:
    total = 0
    for piece in _PIECE.findall(text):
        if piece[0].isalnum() or piece[0] == "_":
            for run in _RUN.findall(piece):
                ascii_alpha, ascii_digit = run.isascii() and run.isalpha(), run.isascii() and run.isdigit()
                total += -(-len(run) // 6) if ascii_alpha else -(-len(run) // 3) if ascii_digit else 1
        else:
            total += 1 if piece.isascii() else 2
    return total + text.count(": ")  # a label colon counts one more


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(codec="ascii"), max_size=60))
def test_the_ascii_fast_count_is_the_general_count(text: str) -> None:
    assert COUNTER.count(text) == _slow_count(text)


def test_a_passage_titled_by_the_bridge_is_evidence_for_the_chain() -> None:
    # "Lake District" is named by the first hop; its passage says "It": without the title the
    # sentence shares one word with the question, like the distractor ranked above it.
    items = [
        item("k", "Knott\nKnott is a mountain in the northern part of the English Lake District.", 1.0),
        item("d", "Discovery UK\nDiscovery UK is a channel located in London, part of a network.", 0.9),
        item("l", "Lake District\nIt is located entirely within the county of Cumbria.", 0.8),
    ]
    q = "Where is the district that Knott is part of located in the UK?"
    budget = COUNTER.count("[1] Knott is a mountain in the northern part of the English Lake District.\n"
                           "[2] Lake District: It is located entirely within the county of Cumbria.")  # fmt: skip
    out = pack(q, items, budget_tokens=budget, counter=COUNTER)
    assert "Cumbria" in out.text, out.text


def test_an_assistants_turns_weigh_less_than_the_users() -> None:
    # The assistant's reply echoes the question's words and ranks first; the user's turn holds
    # the fact. Only one fits.
    reply = "Your highest score in Ticket to Ride will rise with long routes."
    items = [
        item("a", reply, 1.0, speaker="assistant", session="s1", at=T0),
        item("u", "I got 132 points in Ticket to Ride.", 0.5, speaker="user", session="s2", at=T0),
    ]
    budget = max(COUNTER.count("[1] user: I got 132 points in Ticket to Ride."),
                 COUNTER.count("[1] assistant: " + reply))  # fmt: skip
    q = "What is my highest score in Ticket to Ride?"
    assert pack(q, items, budget_tokens=budget, counter=COUNTER).used == ("u",)
    same = pack(q, items, budget_tokens=budget, counter=COUNTER, weights=Weights(assistant=1.0))
    assert same.used == ("a",)


def test_documents_of_one_day_carry_no_date_even_ordered_by_time() -> None:
    items = [item("d1", "Kansas\nThe KU School of Engineering awarded degrees as early as 1873.", 1.0,
                  at=T0, kind="document")]  # fmt: skip
    out = pack(
        "When did Kansas start issuing engineering degrees?", items, budget_tokens=100, counter=COUNTER
    )
    assert out.chronological and "Mar" not in out.text


def test_a_label_colon_joined_to_a_sentence_is_counted_on_the_fast_path() -> None:
    items = [item(f"m{i}", f"Helios {i}\nThe Helios budget review number {i} went well.", 1.0 - i / 10)
             for i in range(8)]  # fmt: skip
    for budget in (20, 41, 60, 97):
        fast = pack("helios budget", items, budget_tokens=budget, counter=COUNTER)
        assert fast == pack("helios budget", items, budget_tokens=budget, counter=Recount())
        assert fast.tokens == COUNTER.count(fast.text) <= budget


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Can you remind me what you recommended for the Lisbon trip?", True),
        ("I'm going back to our previous conversation about dinosaurs. What colour was it?", True),
        ("Can you suggest some activities that I can do in the evening?", False),
        ("Where did I complete my degree?", False),
    ],
)
def test_asks_the_assistant(query: str, expected: bool) -> None:
    assert asks_the_assistant(query) is expected


def test_assistant_turns_keep_their_prior_when_the_question_asks_what_the_assistant_said() -> None:
    items = [
        item("a", "I recommended the Hotel Avenida in Lisbon for the trip.", 1.0, speaker="assistant"),
        item("u", "I asked about hotels in Lisbon for the trip.", 0.9, speaker="user"),
    ]
    budget = 20  # either turn fits, not both
    weights = Weights(lexical=0.0, answer_type=0.0, lead=0.0)  # rank and speaker decide
    other = pack("Which hotel in Lisbon?", items, budget_tokens=budget, counter=COUNTER, weights=weights)
    asked = pack("Which hotel in Lisbon did you recommend?", items, budget_tokens=budget, counter=COUNTER,
                 weights=weights)  # fmt: skip
    assert other.used == ("u",)  # an assistant's turn weighs half: the user's turn wins
    assert asked.used == ("a",)  # asked what the assistant said: its turn keeps its first rank


class NewlineCounter:
    """The default counter's count plus one token per newline, declared as ``join_tokens = 1``."""

    name = "newline"
    join_tokens = 1

    def __init__(self) -> None:
        self.whole = 0  # texts of several lines counted

    def count(self, text: str) -> int:
        self.whole += "\n" in text
        return COUNTER.count(text) + text.count("\n")


class NewlineRecount(NewlineCounter):
    """The same counts, no claim: every fit counted on the whole text."""

    join_tokens = None  # type: ignore[assignment]


def test_a_join_bound_packs_what_whole_counts_pack() -> None:
    items = [
        item(f"m{i}", f"Memory {i}: helios budget review. Unrelated filler sentence here.", 1.0 - i / 20)
        for i in range(15)
    ]
    for budget in (30, 80, 200):
        summed, whole = NewlineCounter(), NewlineRecount()
        bound = pack("helios budget", items, budget_tokens=budget, counter=summed)
        exact = pack("helios budget", items, budget_tokens=budget, counter=whole)
        assert bound == exact  # the bound is exact here: each join costs its one token
        assert bound.tokens == NewlineCounter().count(bound.text) <= budget
        assert (
            "\n" in bound.text and summed.whole == 1 < whole.whole
        )  # line counts summed; the text counted once


class JoinLiar(NewlineCounter):
    """Claims a join costs at most one token but charges three."""

    def count(self, text: str) -> int:
        return COUNTER.count(text) + 3 * text.count("\n")


def test_a_wrong_join_bound_still_respects_the_budget() -> None:
    items = [item(f"m{i}", f"Memory number {i} about helios.", 1.0 - i / 10) for i in range(6)]
    out = pack("helios", items, budget_tokens=40, counter=JoinLiar())
    assert out.tokens == JoinLiar().count(out.text) <= 40
    assert len(out.used) >= 2


def test_a_question_for_the_latest_state_takes_the_newer_statement_too() -> None:
    """LongMemEval 0e4e4c46: "my highest score so far is 124 points" (older, ranked first) and
    "I just got my highest score in Ticket to Ride - 132 points!" (newer). With the usual
    discount for words the context holds already, the newer sentence looks like a repetition."""
    items = [
        ContextItem(id="old", text="I'm interested in trying out Carcassonne with a group of six. By the way, I've been "
                    "crushing it in Ticket to Ride lately - my highest score so far is 124 points, and I'm eager "
                    "to keep improving.", score=0.9, session="s1", at=datetime(2023, 5, 23), speaker="user"),
        ContextItem(id="new", text="Building structures and trading resources is indeed a crucial part of the game. By "
                    "the way, speaking of building things, I just got my highest score in Ticket to Ride - 132 "
                    "points! Anyway, back to Scythe.", score=0.8, session="s2", at=datetime(2023, 5, 25), speaker="user"),
        ContextItem(id="x", text="Scythe is a game of engine building and area control for one to five players.",
                    score=0.7, session="s3", at=datetime(2023, 5, 20), speaker="assistant"),
    ]  # fmt: skip
    q = "What is my current highest score in Ticket to Ride?"
    latest = pack(q, items, budget_tokens=100, counter=RegexTokenCounter())
    assert "132 points" in latest.text and "124 points" in latest.text
    discounted = pack(
        q, items, budget_tokens=100, counter=RegexTokenCounter(), weights=Weights(repeat_latest=None)
    )
    assert "132 points" not in discounted.text
    # a question that does not ask for the latest state keeps the discount
    plain_q = pack(
        "What is my highest score in Ticket to Ride?", items, budget_tokens=100, counter=RegexTokenCounter()
    )
    assert "132 points" not in plain_q.text


def _theater_chat() -> list[ContextItem]:
    """LongMemEval's "What play did I attend at the local community theater?", cut short: the
    user names a friend in the turn that matches the question; the assistant's reply names her
    again; the play is in the user's next turn."""
    who = {"u": "user", "a": "assistant"}
    texts = [
        (
            "u2",
            "u",
            "I recently went to a play at the local community theater, and the lead actress reminded "
            "me of my friend Emily.",
        ),
        (
            "a3",
            "a",
            "That's great to hear! Perhaps Emily could audition for a role there. Emily could also "
            "take acting classes for adults.",
        ),
        (
            "u4",
            "u",
            "I was thinking of getting Emily to audition. The play I attended was a production of The "
            "Glass Menagerie.",
        ),
        *((f"f{i}", "a", f"Filler turn {i} about gardening and tomatoes in the spring.") for i in range(12)),
    ]
    return [
        item(i, t, 1.0 - n / 20, speaker=who[role], session="s1", at=T0 + timedelta(minutes=n))
        for n, (i, role, t) in enumerate(texts)
    ]


def test_a_name_in_a_chat_turn_is_no_bridge_within_its_session() -> None:
    # A name first met in a chosen passage sentence is a bridge: the passages naming it are the
    # chain's next hop. In one conversation the friend the user names is the topic; the
    # assistant's turn naming her again elaborates it, and as a bridge it took the tokens the
    # play's name needed. (Across sessions a chat's names still bridge: the trip's turns weeks
    # apart, tests/integration/test_context_trip.py.)
    q = "What play did I attend at the local community theater?"
    out = pack(q, _theater_chat(), budget_tokens=80, counter=COUNTER)
    assert "Glass Menagerie" in out.text, out.text
    assert "Perhaps Emily" not in out.text, out.text


@pytest.mark.parametrize(
    ("query", "wants"),
    [
        ("When did the Admiral Twin open in the city where the Philbrook Museum is located?", {"date"}),
        (
            "How many Publix stores are in the state where Hello Love's performer lived when he died?",
            {"number"},
        ),
        ("Who was president when the area where Intrepid Wind Farm is located became a state?", {"name"}),
        ("How long did Nicolas have to leave work when he had a nosebleed?", {"number"}),
        ("When and where did we meet?", {"date", "name"}),
        ("Can you remind me who the President's Chief Advisor for Science was?", {"name"}),
        ("What time did I reach the clinic on Monday?", {"time"}),
        ("What country was the author of Brand a citizen of?", set()),
        ("What is the population of the state where Dodge City Regional Airport is located?", {"number"}),
        ("What was the year the team that Ana leads was founded?", {"date"}),
    ],
)
def test_the_answer_type_is_read_from_the_first_interrogative_not_a_relative_clause(
    query: str, wants: set[str]
) -> None:
    assert asks_for(query) == wants
