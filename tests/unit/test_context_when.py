"""Tests for falkmem.context.when (relative time words read against when a memory was said)
and for how the packer writes them: only in what was said (chat turns, events), never in a
document, "today" only where the line shows another day, within the budget."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest

from falkmem.context import ContextItem, RegexTokenCounter, pack
from falkmem.context.when import anchor, days_named, resolve, unanchor
from falkmem.settings import zone

MONDAY = date(2023, 5, 8)
COUNTER = RegexTokenCounter()


@pytest.mark.parametrize(
    ("expression", "meant"),
    [
        ("yesterday", "7 May 2023"),
        ("Last night", "7 May 2023"),
        ("the day before yesterday", "6 May 2023"),
        ("tomorrow", "9 May 2023"),
        ("the day after tomorrow", "10 May 2023"),
        ("this morning", "8 May 2023"),
        ("3 days ago", "5 May 2023"),
        ("two days ago", "6 May 2023"),
        ("a day ago", "7 May 2023"),
        ("last Friday", "5 May 2023"),
        ("last Monday", "1 May 2023"),  # said on a Monday: the one before, not today
        ("next Monday", "15 May 2023"),
        ("next Sunday", "14 May 2023"),
        ("last week", "the week before 8 May 2023"),
        ("next weekend", "the weekend after 8 May 2023"),
        ("last month", "Apr 2023"),
        ("next year", "2024"),
        ("two weeks ago", "the week of 24 Apr 2023"),
        ("3 months ago", "Feb 2023"),
        ("a year ago", "2022"),
        ("this past Saturday", "6 May 2023"),
        ("this weekend", "the weekend of 13 May 2023"),
    ],
)
def test_resolve_reads_an_expression_against_the_day_it_was_said(expression: str, meant: str) -> None:
    assert resolve(expression, MONDAY) == meant


def test_this_weekend_is_the_one_it_is_or_the_next() -> None:
    assert resolve("this weekend", date(2023, 5, 13)) == "the weekend of 13 May 2023"  # Saturday
    assert resolve("this weekend", date(2023, 5, 14)) == "the weekend of 13 May 2023"  # Sunday
    assert resolve("this weekend", date(2023, 5, 12)) == "the weekend of 13 May 2023"  # Friday


def test_months_and_years_roll_over() -> None:
    assert resolve("last month", date(2024, 1, 3)) == "Dec 2023"
    assert resolve("next month", date(2023, 12, 30)) == "Jan 2024"
    assert resolve("yesterday", date(2024, 1, 1)) == "31 Dec 2023"


def test_anchor_writes_the_date_after_each_expression_and_unanchor_takes_it_back() -> None:
    text = "Yesterday I caught the flu, last week was fine, and next Friday I fly."
    out = anchor(text, MONDAY)
    assert out == (
        "Yesterday (7 May 2023) I caught the flu, last week (the week before 8 May 2023) was fine, "
        "and next Friday (12 May 2023) I fly."
    )
    assert unanchor(out) == text


def test_a_possessive_keeps_its_s_before_the_date() -> None:
    text = "Yesterday's meeting ran late; tomorrow’s will too."
    out = anchor(text, MONDAY)
    assert out == "Yesterday's (7 May 2023) meeting ran late; tomorrow’s (9 May 2023) will too."
    assert unanchor(out) == text


def test_what_cannot_be_resolved_without_guessing_is_left_alone() -> None:
    text = "On Friday we meet; a few days ago it rained; this summer maybe; yesterday (May 7) was long."
    assert anchor(text, MONDAY) == text


def test_today_needs_no_date_where_the_line_shows_that_day() -> None:
    assert anchor("Today was long.", MONDAY, MONDAY) == "Today was long."
    assert anchor("Today was long.", MONDAY, MONDAY - timedelta(days=1)) == "Today (8 May 2023) was long."
    assert anchor("Today was long.", MONDAY) == "Today (8 May 2023) was long."


def _turn(i: str, text: str, score: float, at: datetime, **kw: object) -> ContextItem:
    return ContextItem(i, text, score, session=f"s-{i}", speaker="user", at=at, kind="episode", **kw)  # type: ignore[arg-type]


def test_a_chat_turn_gets_the_date_its_yesterday_means_in_the_context() -> None:
    said = datetime(2024, 1, 14, 20, 5, tzinfo=UTC)
    items = [
        _turn("t1", "I am a bit sick today. Caught a flu yesterday, I went out without my coat.", 0.9, said),
        _turn("t2", "The flu shot clinic opens on Monday.", 0.5, said - timedelta(days=3)),
    ]
    p = pack("When did I catch the flu?", items, budget_tokens=80, counter=COUNTER)
    assert "Caught a flu yesterday (13 Jan 2024)" in p.text
    assert "today (" not in p.text  # the line shows 14 Jan 2024 already
    assert "14 Jan 2024" in p.text
    assert p.tokens == COUNTER.count(p.text) <= 80


def test_dates_off_keeps_a_turns_words() -> None:
    said = datetime(2024, 1, 14, 20, 5, tzinfo=UTC)
    items = [_turn("t1", "Caught a flu yesterday, I went out without my coat.", 0.9, said)]
    p = pack("When did I catch the flu?", items, budget_tokens=80, counter=COUNTER, dates=False)
    assert "Caught a flu yesterday, I went" in p.text


def test_a_document_keeps_its_words() -> None:
    items = [ContextItem("d1", "The report was filed yesterday by the clerk.", 1.0, at=datetime(2024, 1, 14, tzinfo=UTC),
                         kind="document")]  # fmt: skip
    p = pack("When was the report filed?", items, budget_tokens=60, counter=COUNTER)
    assert "yesterday by the clerk" in p.text
    assert "(13 Jan 2024)" not in p.text


def test_a_turn_past_midnight_gets_its_own_day_on_its_session_line() -> None:
    evening = datetime(2024, 1, 2, 23, 50, tzinfo=UTC)
    items = [
        ContextItem("a", "Out to buy meds now.", 0.9, session="s", speaker="user", at=evening, kind="episode"),
        ContextItem("b", "Pretty uneventful today besides the meds.", 0.8, session="s", speaker="user",
                    at=evening + timedelta(minutes=20), kind="episode"),
        ContextItem("c", "Meds cost a lot.", 0.1, session="t", speaker="user", at=evening - timedelta(days=5), kind="episode"),
    ]  # fmt: skip
    p = pack("When did I buy meds?", items, budget_tokens=100, counter=COUNTER)
    line = next(x for x in p.text.splitlines() if "uneventful" in x)
    assert re.match(r"\[\d\] 2 Jan 2024 user: ", line)
    assert "today (3 Jan 2024) besides the meds" in line


def test_the_days_are_those_of_the_time_zone_given() -> None:
    # 05:00 UTC on 4 Jan is 21:00 on 3 Jan in California and 14:00 on 4 Jan in Tokyo
    items = [
        _turn("t1", "I flew back yesterday and it was long.", 0.9, datetime(2024, 1, 4, 5, 0, tzinfo=UTC))
    ]
    q = "When did I fly back?"
    assert "[1] 4 Jan 2024 user: I flew back yesterday (3 Jan 2024)" in pack(
        q, items, budget_tokens=60, counter=COUNTER).text  # fmt: skip
    west = pack(q, items, budget_tokens=60, counter=COUNTER, tz=zone("America/Los_Angeles"))
    assert "[1] 3 Jan 2024 user: I flew back yesterday (2 Jan 2024)" in west.text, west.text
    assert west.sources[0].times == (datetime(2024, 1, 4, 5, 0, tzinfo=UTC),)  # provenance stays UTC
    east = pack(q, items, budget_tokens=60, counter=COUNTER, tz=zone("Asia/Tokyo"))
    assert "[1] 4 Jan 2024 user: I flew back yesterday (3 Jan 2024)" in east.text, east.text


def test_a_line_shows_the_zones_day_and_today_needs_no_date_there() -> None:
    # 22:30 UTC on 10 Jul is 07:30 on 11 Jul in Tokyo
    said = datetime(2023, 7, 10, 22, 30, tzinfo=UTC)
    items = [_turn("t1", "Today was the longest day at work.", 0.9, said),
             _turn("t2", "Work was fine.", 0.5, said - timedelta(days=2))]  # fmt: skip
    utc_line = pack("How was work?", items, budget_tokens=60, counter=COUNTER).text.splitlines()[0]
    tokyo_line = pack(
        "How was work?", items, budget_tokens=60, counter=COUNTER, tz=zone("Asia/Tokyo")
    ).text.splitlines()[0]
    assert utc_line == "[1] 10 Jul 2023 user: Today was the longest day at work."
    assert tokyo_line == "[1] 11 Jul 2023 user: Today was the longest day at work."


@pytest.mark.parametrize("budget", [12, 16, 20, 24, 30, 40])
def test_the_written_dates_count_against_the_budget(budget: int) -> None:
    said = datetime(2024, 1, 14, 20, 5, tzinfo=UTC)
    items = [
        _turn(f"t{n}", f"Yesterday I saw friend {n}, last week too, and next Friday again.", 1.0 - n / 10, said - timedelta(days=n))
        for n in range(5)
    ]  # fmt: skip
    p = pack("When did I see my friend?", items, budget_tokens=budget, counter=COUNTER)
    assert p.tokens == COUNTER.count(p.text) <= budget


def test_days_named_are_the_days_relative_words_mean() -> None:
    assert days_named("I got it today, saw her yesterday and again 3 days ago.", MONDAY) == [
        date(2023, 5, 8), date(2023, 5, 7), date(2023, 5, 5)
    ]  # fmt: skip
    assert days_named("We met last Friday; dinner is next Sunday.", MONDAY) == [
        date(2023, 5, 5),
        date(2023, 5, 14),
    ]
    # a week, a month, a year, or a day written out: no one day it means by itself
    assert days_named("Last week was long, next month too, and a year ago; on 5 May we met.", MONDAY) == []


SATURDAY = datetime(2023, 3, 4, 16, 45, tzinfo=UTC)
LAST_SATURDAY = (datetime(2023, 3, 4), datetime(2023, 3, 5))  # what find_time gives, asked on 9 Mar
GIFT = "I'm looking for advice on my antique furniture. By the way, I also got a crystal chandelier from my aunt today."
JEWELRY = [
    _turn("t1", "Jewelry plays a big role in Indian weddings, and each piece of jewelry has a meaning.", 0.9, SATURDAY),
    _turn("t2", "I received a jewelry-making kit once and never used the pieces of jewelry it made.", 0.8,
          SATURDAY - timedelta(days=30)),
    _turn("t3", GIFT, 0.7, SATURDAY),
]  # fmt: skip
JEWELRY_Q = "I received a piece of jewelry last Saturday from whom?"


def test_a_sentence_that_names_the_asked_day_is_evidence() -> None:
    # "today", said that Saturday, is the day the question asks about: the gift's sentence is
    # chosen though it shares no word with the question
    plain = pack(JEWELRY_Q, JEWELRY, budget_tokens=90, counter=COUNTER)
    asked = pack(JEWELRY_Q, JEWELRY, budget_tokens=90, counter=COUNTER, window=LAST_SATURDAY)
    assert "my aunt" not in plain.text, plain.text
    assert "chandelier from my aunt today" in asked.text, asked.text
    assert asked.tokens <= 90


def test_a_wide_window_or_a_document_gains_nothing_from_the_day() -> None:
    # "in March" spans a month: every "today" of the month would gain; a document's "today" is
    # when it was stored, not an event
    month = (datetime(2023, 3, 1), datetime(2023, 4, 1))
    plain = pack(JEWELRY_Q, JEWELRY, budget_tokens=90, counter=COUNTER)
    assert pack(JEWELRY_Q, JEWELRY, budget_tokens=90, counter=COUNTER, window=month).text == plain.text
    docs = [ContextItem(it.id, it.text, it.score, at=it.at, kind="document") for it in JEWELRY]
    for budget in (45, 70, 80):  # budgets where the gift's sentence would take the lead's place
        assert (pack(JEWELRY_Q, docs, budget_tokens=budget, counter=COUNTER, window=LAST_SATURDAY).text
                == pack(JEWELRY_Q, docs, budget_tokens=budget, counter=COUNTER).text)  # fmt: skip
    # another day's "today" is no evidence either
    other = [*JEWELRY[:2], _turn("t3", GIFT, 0.7, SATURDAY - timedelta(days=3))]
    packed = pack(JEWELRY_Q, other, budget_tokens=90, counter=COUNTER, window=LAST_SATURDAY)
    assert packed.text == pack(JEWELRY_Q, other, budget_tokens=90, counter=COUNTER).text
    assert "my aunt" not in packed.text


def test_a_day_named_from_further_away_is_evidence_too() -> None:
    # "ten days ago", said ten days after the Saturday asked about, names that Saturday
    later = [
        *JEWELRY[:2],
        _turn("t3", GIFT.replace("today", "10 days ago"), 0.7, SATURDAY + timedelta(days=10)),
    ]
    # (100 tokens: the date written after "10 days ago" takes a few more than "today")
    packed = pack(JEWELRY_Q, later, budget_tokens=100, counter=COUNTER, window=LAST_SATURDAY)
    assert "chandelier from my aunt 10 days ago (4 Mar 2023)" in packed.text, packed.text
    assert "my aunt" not in pack(JEWELRY_Q, later, budget_tokens=100, counter=COUNTER).text
