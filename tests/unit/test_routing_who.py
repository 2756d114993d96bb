"""routing/who.py and the router's reading of a question (time, order, role, followable entities)."""

from __future__ import annotations

from datetime import datetime

from falkmem.extraction.known import KnownEntities
from falkmem.routing.router import RouterConfig, plan_query
from falkmem.routing.who import answer_role, asker_role, role_of


def test_asker_role() -> None:
    assert asker_role("Where did I complete my degree?") == "user"
    assert asker_role("What was the name you gave the zombie?") == "assistant"
    assert asker_role("Can you remind me what we decided?") is None  # both
    assert asker_role("What sports does Paola play?") is None  # neither
    assert asker_role("I\u2019m checking: what was it?") == "user"


def test_answer_role_is_the_users_unless_the_assistant_is_asked() -> None:
    assert answer_role("Where did I complete my degree?") == "user"
    assert answer_role("What was the name you gave the zombie?") == "assistant"
    assert answer_role("I'm adding a cache to my API. What would you suggest?") == "user"  # both
    assert answer_role("Which libraries does the project use?") == "user"  # neither
    assert answer_role("Can you remind me what you recommended for the trip?") == "assistant"


def test_role_of() -> None:
    assert (
        role_of("User") == "user" and role_of(" assistant ") == "assistant" and role_of("AI") == "assistant"
    )
    assert role_of("Paola") is None and role_of(None) is None


def test_hubs_do_not_count_for_the_entity_rule() -> None:
    known = KnownEntities([("paola", "Paola"), ("walt disney world", "Walt Disney World")])
    cfg = RouterConfig(entity_threshold=1)
    mentions = {"paola": 600, "walt disney world": 3}
    speaker = plan_query("What sports does Paola play?", known, cfg, mentions=mentions, max_mentions=50)
    assert (
        speaker.route == "vector" and speaker.entities == (("paola", "Paola"),) and speaker.followable == ()
    )
    assert speaker.rule == "no followable entity named"
    place = plan_query(
        "When did Paola go to Walt Disney World?", known, cfg, mentions=mentions, max_mentions=50
    )
    assert place.route == "hybrid" and place.followable == ("walt disney world",)
    unknown_counts = plan_query("What sports does Paola play?", known, cfg)  # no counts: every entity counts
    assert unknown_counts.route == "hybrid"


def test_the_plan_reads_time_order_and_role() -> None:
    plan = plan_query("What did I buy most recently, last Saturday?", KnownEntities(), RouterConfig(),
                      now=datetime(2023, 3, 9, 12))  # fmt: skip
    assert plan.order == "latest" and plan.role == "user"
    assert plan.time is not None and plan.time.start == datetime(2023, 3, 4) and not plan.time.explicit
