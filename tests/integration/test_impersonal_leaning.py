"""The impersonal leaning on a real store: in a chat between people, a turn that says nothing of
its speaker ("Wow skiing looks like so much fun", no "I", "my", "we") loses
``impersonal_penalty`` from its fused score; the turns that tell of the speaker, and the turns of
a user or an assistant, do not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from falkmem import Memory, Tenant


def _chat(tenant: Tenant) -> None:
    # one session each: the links channel (turns around a seed) would move the scores as well
    tenant.add_many([
        {"id": "wow", "speaker": "Elise", "session": "s1", "text": "Elise: Wow skiing looks like so much fun, you look amazing"},
        {"id": "ten", "speaker": "Kate", "session": "s2", "text": "Kate: I've been skiing for about 10 years now"},
        {"id": "where", "speaker": "Elise", "session": "s3", "text": "Elise: Where are you going skiing in?"},
        {"id": "usr", "speaker": "user", "session": "s4", "text": "Skiing in Aspen was great fun"},
        {"id": "bot", "speaker": "assistant", "session": "s5", "text": "Aspen has some of the best skiing in Colorado."},
    ])  # fmt: skip


def test_the_search_takes_the_penalty_from_turns_that_say_nothing_of_their_speaker(
    tenant: Tenant, reopened: Callable[..., Memory]
) -> None:
    _chat(tenant)
    q = "When did Kate start skiing?"
    with reopened(off=["impersonal"]) as off:
        plain = dict(off.tenant(tenant.id).explain(q, k=10).fused)
    leaned = dict(tenant.explain(q, k=10).fused)
    penalty = tenant._engine.settings.lean.impersonal
    assert penalty > 0
    assert leaned["wow"] == pytest.approx(plain["wow"] - penalty)
    for told in ("ten", "usr", "bot"):  # tells of its speaker; a user's and an assistant's turns
        assert leaned[told] == pytest.approx(plain[told])
    # explain() says which leaning moved a candidate, and by how much
    shown = tenant.explain(q, k=10).leanings
    assert shown["wow"]["impersonal"] == pytest.approx(-penalty)
    assert "impersonal" not in shown.get("ten", {}) and "impersonal" not in shown.get("bot", {})
