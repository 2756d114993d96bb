"""The speaker leaning on a real store: a question that names a speaker by first name only, or
spells the name another way ("Muhammad" for the speaker "Muhhamed"), leans to that speaker's
turns, as one that names a stored entity does."""

from __future__ import annotations

from falkmem import Tenant


def _chat(tenant: Tenant) -> None:
    tenant.add_many([
        {"id": "m1", "speaker": "Muhhamed", "session": "s1", "text": "Muhhamed: I play Fortnite with friends from work."},
        {"id": "f1", "speaker": "Fahim Khan", "session": "s1", "text": "Fahim Khan: I play Fortnite with my cousins."},
        {"id": "m2", "speaker": "Muhhamed", "session": "s2", "text": "Muhhamed: I cooked pasta with garlic tonight."},
        {"id": "f2", "speaker": "Fahim Khan", "session": "s2", "text": "Fahim Khan: I cooked pasta with garlic too."},
    ])  # fmt: skip


def test_a_speaker_named_by_another_spelling_or_first_name_leans_up(tenant: Tenant) -> None:
    _chat(tenant)
    by_muhammad = [h.id for h in tenant.search("Who does Muhammad play Fortnite with?", k=4)]
    assert by_muhammad.index("m1") < by_muhammad.index("f1")
    by_fahim = [h.id for h in tenant.search("Who does Fahim play Fortnite with?", k=4)]
    assert by_fahim.index("f1") < by_fahim.index("m1")
    by_faheem = [h.id for h in tenant.search("What did Faheem cook?", k=4)]
    assert by_faheem.index("f2") < by_faheem.index("m2")


def _friends(tenant: Tenant) -> None:
    """Elise calls the speaker labelled "Emi" Kate, as REALTALK's first chat does."""
    tenant.add_many([
        {"id": "l1", "speaker": "elise", "session": "s1", "text": "Hey Kate! How was your week?"},
        {"id": "e1", "speaker": "Emi", "session": "s1", "text": "Great, I baked sourdough bread with my sister."},
        {"id": "l2", "speaker": "elise", "session": "s1", "text": "I baked sourdough bread with my mom last weekend."},
        {"id": "l3", "speaker": "elise", "session": "s2", "text": "Thanks for the recipe Kate."},
        {"id": "e2", "speaker": "Emi", "session": "s2", "text": "I love painting landscapes in the morning."},
        {"id": "l4", "speaker": "elise", "session": "s2", "text": "Do you still paint Kate?"},
    ])  # fmt: skip


def test_a_speaker_named_by_what_the_other_calls_her_leans_up(tenant: Tenant) -> None:
    _friends(tenant)
    hits = [h.id for h in tenant.search("Who did Kate bake sourdough bread with?", k=6)]
    assert hits.index("e1") < hits.index("l2")
    why = tenant.explain("Who did Kate bake sourdough bread with?", k=6)
    assert why.leanings.get("e1", {}).get("speaker") and not why.leanings.get("l2", {}).get("speaker")
    assert why.called == {"Emi": "kate"}


def test_a_name_both_speakers_write_is_nobody_s_alias(tenant: Tenant) -> None:
    tenant.add_many([
        {"id": "a1", "speaker": "Kevin", "session": "s1", "text": "Have you ever been to Miami?"},
        {"id": "b1", "speaker": "Paola", "session": "s1", "text": "Yes, I loved Miami."},
        {"id": "a2", "speaker": "Kevin", "session": "s2", "text": "I want to go back to Miami!"},
        {"id": "b2", "speaker": "Paola", "session": "s2", "text": "The beaches near Miami are quiet in May."},
    ])  # fmt: skip
    why = tenant.explain("When did somebody visit Miami?", k=4)
    assert not any("speaker" in v for v in why.leanings.values()) and why.called == {}


def test_the_context_says_whom_the_question_calls_kate(tenant: Tenant) -> None:
    _friends(tenant)
    ctx = tenant.context("Who did Kate bake sourdough bread with?", budget_tokens=150)
    assert "Emi (Kate): Great, I baked sourdough bread with my sister." in ctx.text
    assert "elise (kate)" not in ctx.text.casefold()
    plain = tenant.context("Who did Emi bake sourdough bread with?", budget_tokens=150)
    assert "(Kate)" not in plain.text
