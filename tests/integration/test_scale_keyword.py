"""The keyword channel's bound on what one search reads (issue 25): ``keyword_max_df``.

A term in more memories than ``max_df`` is dropped like a term over the relative cut, so a search
reads at most terms × ``max_df`` postings whatever the tenant's size; a term in more than
``fetch_max_df`` brings no candidates of its own, pairs of them do. Below the bounds nothing
changes.
"""

from __future__ import annotations

from falkmem import Tenant
from falkmem.config import KeywordConfig
from falkmem.retrieval.keyword import KeywordHits, keyword_search


def _kw(tenant: Tenant, text: str, max_df: int | None, **kw: object) -> KeywordHits:
    eng = tenant._engine
    cfg = KeywordConfig.model_validate(
        {"candidates": 100, "max_df": max_df, "fetch_max_df": None, "fetch_pairs": 0, **kw}
    )
    return keyword_search(eng.store.executor, tenant.graph, text, cfg, k=20)


def _corpus(tenant: Tenant) -> None:
    # "coffee" in 30 memories, "tea" in 8, "zanzibar" in 2; 40 memories in all
    rows = []
    for i in range(40):
        words = ["coffee"] if i < 30 else ["water"]
        if i % 5 == 0:
            words.append("tea")
        if i in (3, 31):
            words.append("zanzibar")
        rows.append({"id": f"m{i:02d}", "text": f"Note {i}: we talked about {' and '.join(words)} today."})
    tenant.add_many(rows)


def test_below_the_bound_the_ranking_is_unchanged(tenant: Tenant) -> None:
    _corpus(tenant)
    for q in ("coffee with tea in zanzibar", "tea", "coffee", "water tea"):
        free = _kw(tenant, q, None, common_min_df=1000)
        bounded = _kw(tenant, q, 40, common_min_df=1000)
        assert [(r["id"], round(s, 9)) for r, s in bounded.hits] == [
            (r["id"], round(s, 9)) for r, s in free.hits
        ]
        assert bounded.mass == free.mass


def test_a_term_over_the_bound_is_dropped_from_search_score_and_mass(tenant: Tenant) -> None:
    _corpus(tenant)
    free = _kw(tenant, "coffee zanzibar", None, common_min_df=1000)
    bounded = _kw(tenant, "coffee zanzibar", 10, common_min_df=1000)
    only_rare = _kw(tenant, "zanzibar", None, common_min_df=1000)
    assert {r["id"] for r, _ in free.hits} > {"m03", "m31"}  # coffee matched many
    # coffee (30 > 10) is neither searched nor scored: the ranking and the mass are zanzibar's alone
    assert [(r["id"], s) for r, s in bounded.hits] == [(r["id"], s) for r, s in only_rare.hits]
    assert bounded.mass == only_rare.mass < free.mass


def test_when_every_term_is_common_the_rarest_within_the_bound_is_searched(tenant: Tenant) -> None:
    _corpus(tenant)
    # relative cut at 0.1 x 40 = 4: coffee (30) and tea (8) are both common; tea is the rarest
    both = _kw(tenant, "coffee tea", 20, common_min_df=1, common_fraction=0.1)
    assert {r["id"] for r, _ in both.hits} == {f"m{i:02d}" for i in range(0, 40, 5)}
    # with the bound under tea's count too, nothing is searchable
    none = _kw(tenant, "coffee tea", 5, common_min_df=1, common_fraction=0.1)
    assert none.hits == [] and none.mass == 0.0


def test_a_term_over_the_fetch_bound_scores_but_brings_no_candidates(tenant: Tenant) -> None:
    _corpus(tenant)
    free = _kw(tenant, "coffee zanzibar", None, common_min_df=1000)
    fetched = _kw(tenant, "coffee zanzibar", None, common_min_df=1000, fetch_max_df=10)
    # only zanzibar's memories are candidates, scored with both terms exactly as without the bound
    scores = {r["id"]: s for r, s in free.hits}
    assert [(r["id"], s) for r, s in fetched.hits] == [(i, scores[i]) for i in ("m03", "m31")]
    assert fetched.mass == free.mass
    # every kept term over the bound: the rarest one brings the candidates (tea: 8 < coffee: 30)
    both = _kw(tenant, "coffee tea", None, common_min_df=1000, fetch_max_df=5)
    assert {r["id"] for r, _ in both.hits} == {f"m{i:02d}" for i in range(0, 40, 5)}


def test_pairs_of_common_terms_bring_the_memories_that_hold_both(tenant: Tenant) -> None:
    _corpus(tenant)
    free = _kw(tenant, "coffee tea zanzibar", None, common_min_df=1000)
    scores = {r["id"]: s for r, s in free.hits}
    alone = _kw(tenant, "coffee tea zanzibar", None, common_min_df=1000, fetch_max_df=5)
    paired = _kw(tenant, "coffee tea zanzibar", None, common_min_df=1000, fetch_max_df=5, fetch_pairs=1)
    assert {r["id"] for r, _ in alone.hits} == {"m03", "m31"}  # zanzibar's memories only
    both = {f"m{i:02d}" for i in range(0, 30, 5)}  # coffee and tea
    assert {r["id"] for r, _ in paired.hits} == both | {"m03", "m31"}
    # scored exactly as without any bound, and a memory with tea alone (m30, m35) is not brought
    assert all(s == scores[r["id"]] for r, s in paired.hits)
    assert paired.mass == free.mass
    # no pair without two terms over the bound
    one = _kw(tenant, "coffee zanzibar", None, common_min_df=1000, fetch_max_df=5, fetch_pairs=3)
    assert {r["id"] for r, _ in one.hits} == {"m03", "m31"}
