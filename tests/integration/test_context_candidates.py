"""How many ranked memories ``context()`` reads grows with its budget: ``context_candidates``
up to 800 tokens, twice as many from 1,200 (``context.items.candidates_for``), on a real
FalkorDB with the real MiniLM."""

from __future__ import annotations

from collections.abc import Callable

from falkmem import Memory, Tenant
from falkmem.context.items import candidates_for

# Short chat turns of one hobby: 20 of them fill far less than 1,200 tokens.
TURNS = [f"I repotted fern number {i} on the balcony this morning." for i in range(60)]
QUESTION = "What did I do with my ferns on the balcony?"


def _fill(tenant: Tenant) -> None:
    tenant.add_many(
        {"text": t, "id": f"t{i}", "kind": "episode", "speaker": "user", "session": "s1"}
        for i, t in enumerate(TURNS)
    )


def test_the_candidates_grow_with_the_budget() -> None:
    assert [candidates_for(b, 20) for b in (1, 300, 800, 801, 1000, 1199, 1200, 10_000)] == [
        20, 20, 20, 21, 30, 40, 40, 40
    ]  # fmt: skip
    assert candidates_for(1200, 5) == 10 and candidates_for(900, 1) == 2


def test_a_wide_budget_packs_more_memories_than_twenty(tenant: Tenant) -> None:
    _fill(tenant)
    narrow = tenant.context(QUESTION, budget_tokens=300)
    wide = tenant.context(QUESTION, budget_tokens=1200)
    assert len(narrow.hits) == 20
    assert len(wide.hits) == 40
    # 20 short turns leave most of 1,200 tokens empty: more than 20 of the 40 are in it
    assert len(wide.used) > 20 and wide.tokens <= 1200
    assert len(tenant.context(QUESTION, budget_tokens=1200, k=12).hits) == 12  # k= wins


def test_the_setting_scales_too(tenant: Tenant, reopened: Callable[..., Memory]) -> None:
    _fill(tenant)
    with reopened(context_candidates=8) as m:
        t = m.tenant(tenant.id)
        assert len(t.context(QUESTION, budget_tokens=300).hits) == 8
        assert len(t.context(QUESTION, budget_tokens=1200).hits) == 16
    with reopened(context_candidates=150) as m:  # twice 150 is over max_k (200): held to it
        assert len(m.tenant(tenant.id).context(QUESTION, budget_tokens=1200).hits) == len(TURNS)
