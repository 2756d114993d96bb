"""The keyword channel's bound on what one search reads (issue 25): ``keyword_max_df``.

A term in more memories than ``max_df`` is dropped like a term over the relative cut, and it is
counted only up to ``max_df + 1`` matches, so a search reads at most terms × ``max_df`` postings
whatever the tenant's size. Below the bound nothing changes.
"""

from __future__ import annotations

import re

from falkmem import Tenant
from falkmem.retrieval.keyword import KeywordHits, clear_term_stats, keyword_search
from falkmem.storage.cypher import query


def _kw(tenant: Tenant, text: str, max_df: int | None, **kw: object) -> KeywordHits:
    clear_term_stats()
    eng = tenant._engine
    return keyword_search(eng.store.executor, tenant.graph, text, k=20, candidates=100, max_df=max_df, **kw)  # type: ignore[arg-type]


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


def test_counting_stops_at_the_bound(tenant: Tenant) -> None:
    """A count streams the term's matches and stops at the limit: it never reads them all."""
    _corpus(tenant)
    store = tenant._engine.store
    q = query("retrieve/term_count")
    g = store.db.select_graph(tenant.graph)
    params = {"term": "coffee", "count_limit": 8}
    plan = store.db.connection.execute_command(
        "GRAPH.PROFILE", tenant.graph, g._build_params_header(params) + q.text
    )
    lines = [x.decode() if isinstance(x, bytes) else str(x) for x in plan]
    produced = [int(m.group(1)) for ln in lines if "ProcedureCall" in ln
                for m in [re.search(r"Records produced: (\d+)", ln)] if m]  # fmt: skip
    assert produced == [8], lines  # not the 30 matches of "coffee"
    assert store.executor.run(tenant.graph, q, params)[0]["df"] == 8


def test_each_term_is_counted_on_its_own(tenant: Tenant) -> None:
    """Counts of several terms in one round trip: each is its own (the engine's procedure, cut
    short inside a subquery run once per term, went on with the previous term's matches)."""
    _corpus(tenant)
    ex = tenant._engine.store.executor
    terms = ["coffee", "zanzibar", "nothinglikethis", "tea", "water"]
    runs = ex.run_many(
        tenant.graph, query("retrieve/term_count"), [{"term": t, "count_limit": 5} for t in terms]
    )
    assert [r[0]["df"] for r in runs] == [5, 2, 0, 5, 5]
    assert {(r[0]["n_docs"]) for r in runs} == {40}
    one_by_one = [ex.run(tenant.graph, query("retrieve/term_count"), {"term": t, "count_limit": 100})[0]["df"]
                  for t in terms]  # fmt: skip
    assert one_by_one == [30, 2, 0, 8, 10]


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
