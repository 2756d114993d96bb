"""The brief leaning on a real store: a turn that says next to nothing besides its speaker's name
("yeah", "thats cool") loses ``brief_penalty`` (half of it with two words) from its fused score;
what the speaker told does not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from falkmem import Memory, Tenant

FILLER = ["yeah", "thats cool", "ok", "lol", "sure", "nice", "haha yes", "true"]
TOLD = [
    "I've been learning to watercolor some landscapes",
    "I might try and make some pasta tomorrow, exploring newer recipes",
    "im gonna rest and maybe get some reading done",
]


def _chat(tenant: Tenant) -> None:
    turns = []
    for i, text in enumerate(FILLER):
        turns.append({"id": f"f{i}", "speaker": "Fahim Khan", "session": f"s{i}", "text": f"Fahim Khan: {text}"})
        turns.append({"id": f"a{i}", "speaker": "Akib", "session": f"s{i}",
                      "text": f"Akib: The bus was late again on day {i}, so I walked to campus."})  # fmt: skip
    for i, text in enumerate(TOLD):
        turns.append({"id": f"t{i}", "speaker": "Fahim Khan", "session": f"s{i}", "text": f"Fahim Khan: {text}"})
    tenant.add_many(turns)


def test_the_search_takes_the_penalty_from_turns_that_say_next_to_nothing(
    tenant: Tenant, reopened: Callable[..., Memory]
) -> None:
    _chat(tenant)
    q = "What are Fahim's hobbies?"
    with reopened(off=["brief"]) as off:
        plain = dict(off.tenant(tenant.id).explain(q, k=20).fused)
    leaned = dict(tenant.explain(q, k=20).fused)
    penalty = tenant._engine.settings.lean.brief
    assert penalty > 0
    assert leaned["f0"] == pytest.approx(plain["f0"] - penalty)  # "yeah"
    assert leaned["f1"] == pytest.approx(plain["f1"] - penalty / 2)  # "thats cool"
