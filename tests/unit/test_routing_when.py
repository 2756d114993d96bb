"""routing/when.py: the time a question names, resolved against when it is asked."""

from __future__ import annotations

from datetime import datetime

import pytest

from falkmem.routing.when import find_order, find_time

NOW = datetime(2023, 3, 9, 15, 47)  # a Thursday


@pytest.mark.parametrize(
    ("text", "start", "end", "explicit"),
    [
        ("What did Kevin do on 23.01.2024?", "2024-01-23", "2024-01-24", True),
        ("What happened on 2024-01-23?", "2024-01-23", "2024-01-24", True),
        ("What did I buy on 1/23/2024 at 5 pm", "2024-01-23", "2024-01-24", True),
        ("and on 23/1/2024?", "2024-01-23", "2024-01-24", True),  # only D/M can be
        ("What did Elise play 5 Jan 2024?", "2024-01-05", "2024-01-06", True),
        ("Where is Paola going on the 10th of February 2024?", "2024-02-10", "2024-02-11", True),
        ("How many naps on January 6 2024?", "2024-01-06", "2024-01-07", True),
        ("the meeting on March 3 at 10:30", "2023-03-03", "2023-03-04", True),  # the latest March 3 so far
        ("What did we decide in May?", "2022-05-01", "2022-06-01", True),  # May 2023 is still to come
        ("What did we decide in May 2023?", "2023-05-01", "2023-06-01", True),
        ("What football match did Kevin watch in 2017?", "2017-01-01", "2018-01-01", True),
        ("hand injury recently before 5th of January 2024?", "2024-01-05", "2024-01-06", True),
        ("I received a piece of jewelry last Saturday from whom?", "2023-03-04", "2023-03-05", False),
        ("What did I eat yesterday?", "2023-03-08", "2023-03-09", False),
        ("What am I doing today?", "2023-03-09", "2023-03-10", False),
        ("Where was I three days ago?", "2023-03-05", "2023-03-08", False),
        ("What did I read last week?", "2023-02-27", "2023-03-06", False),
        ("What did I spend last month?", "2023-02-01", "2023-03-01", False),
        ("What did I watch in the past two weeks?", "2023-02-23", "2023-03-10", False),
    ],
)
def test_windows(text: str, start: str, end: str, explicit: bool) -> None:
    ref = find_time(text, NOW)
    assert ref is not None, text
    assert (ref.start.date().isoformat(), ref.end.date().isoformat(), ref.explicit) == (start, end, explicit)


@pytest.mark.parametrize(
    "text",
    [
        "May I ask what you think?",
        "Who leads the Atlas team?",
        "I march every Sunday morning",
        "How long is my commute?",
    ],
)
def test_no_time(text: str) -> None:
    assert find_time(text, NOW) is None


def test_an_aware_now_is_taken_in_utc() -> None:
    from datetime import UTC, timedelta, timezone

    late = datetime(2023, 3, 9, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 04:30 UTC on the 10th
    ref = find_time("what did I do today?", late)
    assert ref is not None and ref.start == datetime(2023, 3, 10)
    assert find_time("today", datetime(2023, 3, 10, tzinfo=UTC)) == ref


def test_order() -> None:
    assert find_order("What is my current highest score?") == "latest"
    assert find_order("What's the latest on my flight?") == "latest"
    assert find_order("Where did we go first?") == "earliest"
    assert find_order("I was going through our previous conversation") is None  # a past chat, not an order
    assert find_order("What did I first buy, and what do I use now?") is None  # both: no leaning


def test_the_window_is_a_day_where_the_asker_lives() -> None:
    from datetime import UTC

    from falkmem.retrieval.pipeline import question_leanings
    from falkmem.routing.router import Plan
    from falkmem.settings import zone

    # asked at 05:00 UTC on 4 Jan: 21:00 on 3 Jan in California, where "yesterday" is 2 Jan
    la = zone("America/Los_Angeles")
    ref = find_time(
        "what did I do yesterday?", datetime(2024, 1, 3, 21, 0)
    )  # the pipeline passes local wall time
    assert ref is not None and ref.start == datetime(2024, 1, 2)
    plan = Plan(route="vector", entities=(), cues=(), rule="", time=ref)
    in_la = question_leanings(plan, "what did I do yesterday?", la).window
    in_utc = question_leanings(plan, "what did I do yesterday?").window
    assert in_la is not None and in_utc is not None
    assert (
        in_la[0] == datetime(2024, 1, 2, 8, 0, tzinfo=UTC).timestamp() - 86_400
    )  # local midnight, a day's slack
    assert in_la[0] - in_utc[0] == 8 * 3600
