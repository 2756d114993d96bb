"""The README's trip, as chat turns in a tenant that holds other memories (issue 22, item 4).

"The flight number, the confirmation code and the travel dates are all the same trip": three
Lisbon turns written weeks apart share a flight number and a city that nothing else names; last
year's Denver trip has its own code, flight and dates; a dentist confirmation number, travel
notes and 60 meeting notes sit beside them. Asked for "the latest on my flight", a 150-token
context must hold the Lisbon code, both dates and the new 11:40 arrival.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import pytest

from falkmem import Memory, Tenant

NOW = "2026-04-14T08:00:00Z"
QUESTION = (
    "What's the latest on my flight? Give me the confirmation code, travel dates, and updated arrival time."
)

LISBON = [
    (
        "lis-1",
        "s-0302",
        "2026-03-02T09:12:00Z",
        "user",
        "Booked my flight to Lisbon: TP 1351, confirmation code LX4K9Q.",
    ),
    (
        "lis-2",
        "s-0302",
        "2026-03-02T09:14:00Z",
        "user",
        "The Lisbon trip is April 14 to April 21, out on TP 1351.",
    ),
    (
        "lis-3",
        "s-0414",
        "2026-04-14T06:40:00Z",
        "user",
        "TP 1351 to Lisbon is delayed; it now lands at 11:40 instead of 09:55.",
    ),
]
DISTRACTORS = [
    (
        "den-1",
        "s-0510",
        "2025-05-10T18:02:00Z",
        "user",
        "Booked my flight to Denver: UA 2210, confirmation code DNV7QZ.",
    ),
    (
        "den-2",
        "s-0510",
        "2025-05-10T18:03:00Z",
        "user",
        "The Denver trip is June 2 to June 6, out on UA 2210.",
    ),
    ("den-3", "s-0602", "2025-06-02T16:30:00Z", "user", "UA 2210 landed in Denver at 14:25, right on time."),
    ("ack-1", "s-0302", "2026-03-02T09:13:00Z", "assistant", "Got it, I saved your booking details."),
    ("ack-2", "s-0510", "2025-05-10T18:04:00Z", "assistant", "Noted. Have a great trip!"),
    (
        "dent-1",
        "s-0401",
        "2026-04-01T10:00:00Z",
        "user",
        "Dentist appointment confirmed for May 12 at 3 pm, confirmation number 88412.",
    ),
    (
        "note-1",
        "s-0201",
        "2026-02-01T12:00:00Z",
        "user",
        "Remember to renew my passport before any summer travel.",
    ),
    ("note-2", "s-0201", "2026-02-01T12:01:00Z", "user", "Packing list: adapters, sunscreen, hiking boots."),
    (
        "note-3",
        "s-0215",
        "2026-02-15T20:00:00Z",
        "user",
        "The airport lounge access comes with the new credit card.",
    ),
    (
        "note-4",
        "s-0215",
        "2026-02-15T20:02:00Z",
        "user",
        "I prefer aisle seats near the front on long flights.",
    ),
]
_PEOPLE = ["Priya", "Omar", "Dana", "Lena", "Marco", "Yuki"]
_TOPICS = ["the Q3 roadmap", "the hiring plan", "the onboarding flow", "the billing migration", "the API keys",
           "the support backlog", "the design review", "the offsite agenda", "the budget review", "the release notes"]  # fmt: skip
_ACTIONS = [
    "will draft",
    "is blocked on",
    "signed off on",
    "will review",
    "asked for an update on",
    "is taking over",
]


def _meetings() -> list[tuple[str, str, str, str, str]]:
    out = []
    combos = itertools.islice(itertools.product(_PEOPLE, _ACTIONS, _TOPICS), 0, None, 7)
    for n, (who, what, topic) in enumerate(itertools.islice(combos, 60)):
        day = 1 + n % 28
        out.append((f"meet-{n}", f"s-meet-{n // 4}", f"2026-0{1 + n % 3}-{day:02d}T15:00:00Z", "user",
                    f"Meeting notes: {who} {what} {topic}; next sync on Thursday."))  # fmt: skip
    return out


@pytest.fixture
def trip(tenant: Tenant) -> Tenant:
    turns = sorted(LISBON + DISTRACTORS + _meetings(), key=lambda t: t[2])
    tenant.add_many(
        [{"id": i, "session": s, "at": at, "speaker": who, "text": text} for i, s, at, who, text in turns]
    )
    return tenant


def test_the_trip_turns_come_first(trip: Tenant) -> None:
    found = trip.search(QUESTION, k=5, now=NOW)
    assert {"lis-1", "lis-2", "lis-3"} <= set(found.ids), [(h.id, round(h.score, 3)) for h in found]
    assert found.ids[0] == "lis-1"  # "the latest": this trip's booking before last year's
    assert found.plan is not None and found.plan.links  # the delay and the dates share TP 1351 with it


def test_without_the_links_the_trip_is_not_whole(trip: Tenant, store_path: Path) -> None:
    url = os.environ.get("FALKMEM_TEST_URL")
    kwargs: dict[str, Any] = {"embedder": trip._engine.embedder, "off": ["links"]}
    with Memory(url=url, **kwargs) if url else Memory(store_path, **kwargs) as plain:
        found = plain.tenant(trip.id).search(QUESTION, k=5, now=NOW)
    # what the links channel adds: the turns that share the flight number with the booking
    assert not {"lis-1", "lis-2", "lis-3"} <= set(found.ids), found.ids


def test_a_150_token_context_holds_the_code_the_dates_and_the_new_arrival(trip: Tenant) -> None:
    ctx = trip.context(QUESTION, budget_tokens=150, now=NOW)
    for needle in ("LX4K9Q", "April 14", "April 21", "11:40"):
        assert needle in ctx.text, (needle, ctx.text)
    assert ctx.tokens <= 150


def test_explain_lists_every_stage_with_what_it_added(trip: Tenant) -> None:
    from falkmem.config import STAGES

    why = trip.explain(QUESTION, k=5, now=NOW)
    names = {s.name for s in why.stages}
    assert (
        set(STAGES) - {"walk", "reliability"} <= names
    )  # the walk and reliability report inside graph/fusion
    links = next(s for s in why.stages if s.name == "links" and s.kind == "channel")
    assert links.ran and links.added, links  # the links channel added to the trip's turns
    role = next(s for s in why.stages if s.name == "role")
    assert role.kind == "adjustment" and all(v > 0 for v in role.added.values())
    contribution = {s.name for s in why.stages if s.kind == "contribution"}
    assert {"vector", "keyword"} <= contribution


def test_a_stage_switched_off_by_name_runs_nowhere(trip: Tenant, store_path: Path) -> None:
    url = os.environ.get("FALKMEM_TEST_URL")
    kwargs: dict[str, Any] = {"embedder": trip._engine.embedder, "off": ["keyword", "role"]}
    with Memory(url=url, **kwargs) if url else Memory(store_path, **kwargs) as plain:
        why = plain.tenant(trip.id).explain(QUESTION, k=5, now=NOW)
    assert "keyword" not in why.channels
    role = next(s for s in why.stages if s.name == "role")
    assert not role.ran and not role.added
    with pytest.raises(Exception, match="unknown stage"):
        Memory(store_path, embedder=trip._engine.embedder, off=["no-such-stage"])
