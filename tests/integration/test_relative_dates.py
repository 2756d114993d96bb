"""Relative time words in a context, end to end (real MiniLM, real FalkorDB): a chat turn that
says "yesterday" reaches the prompt with the date it means, read against when it was said; the
stored memory and the search hit keep the words as written."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from falkmem import Memory, Tenant

SAID = datetime(2024, 1, 14, 20, 5, tzinfo=UTC)
TURNS = [
    ("p1", "s-jan-14", 0, "Paola", "Hey! I am a bit sick today. Caught a flu yesterday, because I went out without my coat."),
    ("e1", "s-jan-14", 0, "Emi", "Oh no, get well soon! Drink a lot of tea."),
    ("p2", "s-jan-08", -6, "Paola", "Yesterday while watching a romance I made some very delicious tacos."),
    ("e2", "s-jan-03", -11, "Emi", "I booked a nail appointment for next Friday."),
    ("p3", "s-dec-30", -15, "Paola", "Last month I was visiting Las Vegas with my sister."),
]  # fmt: skip


def _fill(t: Tenant) -> None:
    t.add_many([
        {"id": i, "session": s, "speaker": who, "kind": "episode", "at": SAID + timedelta(days=d), "text": text}
        for i, s, d, who, text in TURNS
    ])  # fmt: skip


def test_a_turn_reaches_the_prompt_with_the_date_its_yesterday_means(tenant: Tenant) -> None:
    _fill(tenant)
    ctx = tenant.context("When did Paola catch the flu?", budget_tokens=150)
    assert "p1" in ctx.used, f"retrieval: the flu turn is not packed\n{ctx.text}"
    assert "Caught a flu yesterday (13 Jan 2024)" in ctx.text, ctx.text
    assert ctx.tokens <= 150
    hit = next(h for h in ctx.hits if h.id == "p1")
    assert "yesterday," in hit.text and "(13 Jan 2024)" not in hit.text  # the memory keeps its words
    assert "(13 Jan 2024)" not in tenant.get("p1").text


def test_weekdays_and_months_are_read_against_each_turns_own_day(tenant: Tenant) -> None:
    _fill(tenant)
    ctx = tenant.context("When is Emi's nail appointment?", budget_tokens=300)
    assert "next Friday (5 Jan 2024)" in ctx.text, ctx.text  # said on Wednesday 3 Jan 2024
    ctx = tenant.context("When was Paola visiting Las Vegas?", budget_tokens=300)
    assert "Last month (Nov 2023)" in ctx.text, ctx.text  # said on 30 Dec 2023


def test_context_dates_off_leaves_the_words_as_written(
    tenant: Tenant, reopened: Callable[..., Memory]
) -> None:
    _fill(tenant)
    with reopened(context_dates=False) as m:
        ctx = m.tenant(tenant.id).context("When did Paola catch the flu?", budget_tokens=150)
    assert "p1" in ctx.used
    assert "Caught a flu yesterday, because" in ctx.text
    assert "(13 Jan 2024)" not in ctx.text


def test_the_days_are_read_in_the_context_time_zone(tenant: Tenant, reopened: Callable[..., Memory]) -> None:
    # the flu turn was stored at 20:05 UTC on 14 Jan: 09:05 on 15 Jan in Auckland (UTC+13)
    _fill(tenant)
    with reopened(timezone="Pacific/Auckland") as m:
        ctx = m.tenant(tenant.id).context("When did Paola catch the flu?", budget_tokens=150)
    assert "p1" in ctx.used, ctx.text
    assert "Caught a flu yesterday (14 Jan 2024)" in ctx.text, ctx.text
    assert ctx.sources[0].times[0] is None or ctx.sources[0].times[0].tzinfo is not None


def test_the_question_is_read_in_the_time_zone_too(tenant: Tenant, reopened: Callable[..., Memory]) -> None:
    # asked at 05:00 UTC on 4 Jan: in California it is the evening of 3 Jan, and "yesterday" is 2 Jan
    _fill(tenant)
    now = datetime(2024, 1, 4, 5, 0, tzinfo=UTC)
    utc_plan = tenant.explain("What did Paola do yesterday?", now=now).plan
    with reopened(timezone="America/Los_Angeles") as m:
        la_plan = m.tenant(tenant.id).explain("What did Paola do yesterday?", now=now).plan
    assert utc_plan.time is not None and utc_plan.time.start == datetime(2024, 1, 3)
    assert la_plan.time is not None and la_plan.time.start == datetime(2024, 1, 2)


GIFT_DAY = datetime(2023, 3, 4, 16, 45, tzinfo=UTC)  # a Saturday
GIFT_TURNS = [
    ("g1", "s-mar-04", 0, "I'm looking for advice on my antique furniture. I recently got a vintage armchair from the "
                          "1950s. By the way, I also got a crystal chandelier from my aunt today."),
    ("g2", "s-mar-04b", 0, "Jewelry plays a big role in Indian weddings, and each piece of jewelry has a meaning."),
    ("g3", "s-feb-02", -30, "I received a jewelry-making kit once and never used the pieces of jewelry it made."),
    ("g4", "s-feb-11", -21, "Last Saturday I hit a new personal best of 12,345 steps while running errands."),
]  # fmt: skip


def test_a_turn_that_says_today_on_the_asked_day_reaches_the_prompt(tenant: Tenant) -> None:
    # "...last Saturday": the router reads the window (4 Mar 2023, asked on Thursday 9 Mar); the
    # turn said that Saturday whose "today" names it is evidence, though it shares no word
    # with the question
    tenant.add_many([
        {"id": i, "session": s, "speaker": "user", "kind": "episode", "at": GIFT_DAY + timedelta(days=d), "text": text}
        for i, s, d, text in GIFT_TURNS
    ])  # fmt: skip
    q = "I received a piece of jewelry last Saturday from whom?"
    ctx = tenant.context(q, budget_tokens=90, now="2023-03-09T15:47:00+00:00")
    assert ctx.plan is not None and ctx.plan.time is not None
    assert "g1" in [h.id for h in ctx.hits], "retrieval: the gift turn is not a candidate"
    assert "chandelier from my aunt today" in ctx.text, ctx.text
    assert ctx.tokens <= 90
    # asked a month later, "last Saturday" is another day: the gift's sentence is no evidence
    later = tenant.context(q, budget_tokens=90, now="2023-04-06T15:47:00+00:00")
    assert "my aunt" not in later.text, later.text
