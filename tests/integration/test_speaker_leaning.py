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
