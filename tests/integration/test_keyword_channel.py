"""The keyword channel (full-text candidates + BM25) on a real FalkorDB tenant."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from falkmem import Memory, Tenant
from falkmem.config import KeywordConfig
from falkmem.retrieval.filters import Filters
from falkmem.retrieval.keyword import keyword_search

_CFG = KeywordConfig(candidates=100, max_df=None, fetch_max_df=None, fetch_pairs=0)


def _kw(tenant: Tenant, text: str, *, k: int = 10, as_of: float | None = None) -> list[tuple[str, float]]:
    eng = tenant._engine
    hits = keyword_search(eng.store.executor, tenant.graph, text, _CFG, k=k, as_of=as_of).hits
    return [(str(row["id"]), score) for row, score in hits]


def test_inflected_forms_match_like_the_index(tenant: Tenant) -> None:
    # Issue 12 item 2: the full-text index stems with Snowball ("companies" -> "compani"); the
    # BM25 re-scoring must stem the same way or it scores the index's own matches 0 and drops them.
    tenant.add_many(
        [
            {"id": "merger", "text": "Two companies announced a merger."},
            {"id": "tea", "text": "Green tea is served at four."},
            {"id": "ran", "text": "She is running the marathon on Sunday."},
        ]
    )
    assert [i for i, _ in _kw(tenant, "company")] == ["merger"]
    assert [i for i, _ in _kw(tenant, "companies")] == ["merger"]
    assert [i for i, _ in _kw(tenant, "runs")] == ["ran"]
    hits = tenant.search("company", channels={"keyword"}, k=3)
    assert hits.ids == ["merger"]


def test_common_term_cut_keeps_names_on_a_small_tenant(tenant: Tenant) -> None:
    # Issue 12 item 3: "priya" is in 2 of 3 memories (67 % > 25 %): a relative cut dropped the
    # very name the question is about and returned only the tea memory.
    tenant.add_many(
        [
            {"id": "p1", "text": "Priya Chandran leads the Atlas team."},
            {"id": "p2", "text": "Priya drinks tea every morning."},
            {"id": "t", "text": "The office tea is oolong."},
        ]
    )
    got = [i for i, _ in _kw(tenant, "Priya tea")]
    assert set(got) == {"p1", "p2", "t"}
    assert got[0] == "p2"  # the only memory with both terms ranks first


INFLECTED = [
    ("a1", "The committee approved the budgets and is approving more."),
    ("a2", "Researchers studied generously funded studies of happiness."),
    ("a3", "Flights were cancelled; the airline cancels flights often."),
    ("a4", "He argued that arguing is an argument's nature."),
    ("a5", "Mice and a mouse; geese and a goose; the children's child."),
    ("a6", "Connection, connected, connecting, connects: all connect."),
]


def test_every_index_match_is_scored(tenant: Tenant) -> None:
    # Whatever the index matches for a term, BM25 must count it (same stems on both sides).
    from falkmem.storage.cypher import query

    tenant.add_many([{"id": i, "text": t} for i, t in INFLECTED])
    words = [
        "approve", "approval", "budget", "study", "studies", "happy", "happiness", "generous",
        "cancel", "cancelling", "flight", "argue", "argument", "connections", "connective",
        "child", "children", "mouse", "goose", "airlines",
    ]  # fmt: skip
    ex, graph = tenant._engine.store.executor, tenant.graph
    for word in words:
        rows = ex.run(graph, query("retrieve/term_stats"), {"terms": [word]})
        df = int(rows[0]["df"]) if rows else 0
        assert len(_kw(tenant, word)) == df, word


def test_bm25_prefers_rare_terms_and_short_memories(tenant: Tenant) -> None:
    tenant.add_many(
        [
            {"id": "short", "text": "Helios launch moved to May."},
            {"id": "long", "text": "Helios " + "and some unrelated filler words here " * 8 + "launch."},
            {"id": "other", "text": "The launch of the cafeteria menu was fine."},
            {"id": "other2", "text": "Another launch event took place."},
        ]
    )
    got = _kw(tenant, "Helios launch")
    assert [i for i, _ in got][:2] == ["short", "long"]
    assert got[0][1] > got[1][1] > got[2][1] > 0  # higher is better, strictly here
    assert [i for i, _ in _kw(tenant, "Helios launch", k=1)] == ["short"]


def test_identifiers_and_attribution_match(tenant: Tenant) -> None:
    tenant.add("My confirmation code is QX7-84B.", id="code", speaker="dana")
    tenant.add("The weather was nice.", id="w", speaker="omar", user="omar")
    assert [i for i, _ in _kw(tenant, "qx7")] == ["code"]
    assert [i for i, _ in _kw(tenant, "84b")] == ["code"]
    assert [i for i, _ in _kw(tenant, "what did omar say")] == ["w"]  # the speaker is indexed


def test_query_syntax_and_stopwords_are_inert(tenant: Tenant) -> None:
    tenant.add("Alice emailed bob@example.com about node.js.", id="m")
    for hostile in ["*", "the of and", "-", "@text:alice", "foo|bar", '"', "(", "%alice%", "~x", ""]:
        assert isinstance(_kw(tenant, hostile), list)
    assert _kw(tenant, "the of and") == []
    assert [i for i, _ in _kw(tenant, "alice@example.com -node")] == ["m"]


def test_only_active_memories_unless_as_of(tenant: Tenant) -> None:
    tenant.add("UA 837 arrives at 10:05.", id="v1", key="ua837", at="2026-03-03T08:00Z", kind="fact")
    tenant.add("UA 837 now arrives at 11:40.", id="v2", key="ua837", at="2026-03-03T09:00Z", kind="fact")
    tenant.add("Arrivals hall is closed at 837 Main St.", id="x")
    assert {i for i, _ in _kw(tenant, "837 arrives")} == {"v2", "x"}  # arrives ~ arrivals
    then = 1772526600.0  # 2026-03-03T08:30Z
    assert {i for i, _ in _kw(tenant, "837 arrives", as_of=then)} == {"v1"}
    tenant.forget("v2")
    assert [i for i, _ in _kw(tenant, "837")] == ["x"]


def test_the_first_superseded_memory_turns_the_status_check_on(tenant: Tenant) -> None:
    # A tenant whose memories are all current skips each match's status read; the first
    # superseded memory (or a filter, or as_of) must bring the per-match conditions back.
    tenant.add("UA 837 arrives at 10:05.", id="v1", key="ua837", at="2026-03-03T08:00Z", kind="fact")
    tenant.add("Gate B12 for UA 837.", id="g", session="s1")
    assert {i for i, _ in _kw(tenant, "837")} == {"v1", "g"}
    eng = tenant._engine
    in_s1 = keyword_search(
        eng.store.executor, tenant.graph, "837", _CFG, k=10, filters=Filters(sessions=("s1",))
    ).hits
    assert [row["id"] for row, _ in in_s1] == ["g"]
    tenant.add("UA 837 now arrives at 11:40.", id="v2", key="ua837", at="2026-03-03T09:00Z", kind="fact")
    assert {i for i, _ in _kw(tenant, "837")} == {"v2", "g"}
    tenant.forget("v2")  # v1 stays superseded: an erasure does not bring an old version back
    assert {i for i, _ in _kw(tenant, "837")} == {"g"}


class _Counting:
    """Wraps an executor's ``run`` to count the queries the keyword channel sends."""

    def __init__(self, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
        self.names: list[str] = []
        ex = tenant._engine.store.executor
        real = ex.run

        def run(graph: str, q: Any, params: Any = None, **kw: Any) -> Any:
            self.names.append(q.name)
            return real(graph, q, params, **kw)

        monkeypatch.setattr(ex, "run", run)

    def take(self) -> list[str]:
        out, self.names = self.names, []
        return out


def _frequencies(tenant: Tenant) -> dict[str, int]:
    """The tenant's stored document frequencies (``_Term``), stem -> df."""
    from falkmem.storage.cypher import Query

    q = Query(name="test/terms", mode="read", params=frozenset(), doc="", source="test",
              text="MATCH (t:_Term) RETURN t.stem AS stem, t.df AS df")  # fmt: skip
    return {str(r["stem"]): int(r["df"]) for r in tenant._engine.store.executor.run(tenant.graph, q)}


def _recount(tenant: Tenant) -> dict[str, int]:
    """What the frequencies should be: each stem's memories, from their stored stem counts."""
    from collections import Counter

    from falkmem.keyword.stem import parse_bag
    from falkmem.storage.cypher import query

    ex, graph = tenant._engine.store.executor, tenant.graph
    props = [r["props"] for r in ex.run(graph, query("admin/export_artifacts"), {"after": -1, "limit": 1000})]
    df: Counter[str] = Counter()
    for p in props:
        df.update(parse_bag(p["stems"]).keys())
    return dict(df)


def test_document_frequencies_follow_writes_and_erasures(
    tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant.add_many([{"id": "m1", "text": "Two companies announced a merger."}, {"id": "x", "text": "Tea."}])
    assert _frequencies(tenant) == _recount(tenant)
    assert _frequencies(tenant)["compani"] == 1 and _frequencies(tenant)["merger"] == 1
    calls = _Counting(tenant, monkeypatch)
    assert [i for i, _ in _kw(tenant, "merger talks")] == ["m1"]
    # one round trip: frequencies, cut, candidates, BM25 and the winners' rows
    assert calls.take() == ["retrieve/keyword_search"]

    tenant.add("The merger talks stalled; the merger is off.", id="m2")
    assert _frequencies(tenant)["merger"] == 2 and _frequencies(tenant)["talk"] == 1  # one per memory
    assert [i for i, _ in _kw(tenant, "merger talks")] == ["m2", "m1"]
    tenant.forget("m2")
    freq = _frequencies(tenant)
    assert freq == _recount(tenant) and freq["merger"] == 1 and "talk" not in freq  # in no memory: gone
    assert [i for i, _ in _kw(tenant, "merger talks")] == ["m1"]


def test_a_write_by_another_process_is_seen(tenant: Tenant, store_path: Path) -> None:
    # Nothing is cached in the process: another Memory's write counts at the next search.
    tenant.add_many(
        [{"id": f"d{i}", "text": f"Filler memory number {i} about merger rumours."} for i in range(3)]
    )
    tenant.add("Quarterly merger report.", id="r")
    before = _kw(tenant, "merger report")
    url = os.environ.get("FALKMEM_TEST_URL")
    emb = tenant._engine.embedder
    other = Memory(url=url, embedder=emb) if url else Memory(store_path, embedder=emb)
    try:
        other.tenant(tenant.id).add("The report on the merger was leaked.", id="leak")
    finally:
        other.close()
    got = _kw(tenant, "merger report")
    assert {i for i, _ in got} == {"r", "leak", "d0", "d1", "d2"}
    assert dict(got)["r"] != dict(before)["r"]  # N and df changed: so did the score
    assert _frequencies(tenant) == _recount(tenant)


def test_frequencies_of_older_tenants_are_counted_by_migration_14(tenant: Tenant) -> None:
    from falkmem.storage.backfill import fill_terms
    from falkmem.storage.cypher import Query, query

    for i, text, speaker in REFERENCE_CORPUS:
        tenant.add(text, id=i, speaker=speaker)
    written, before = _frequencies(tenant), _kw(tenant, "merger talks company")
    ex, graph = tenant._engine.store.executor, tenant.graph
    strip = Query(name="test/strip_terms", mode="write", params=frozenset(), doc="", source="test",
                  text="MATCH (t:_Term) DELETE t")  # fmt: skip
    ex.run(graph, strip)
    ex.run(graph, query("admin/set_schema_version"), {"version": 13, "now": 0.0})
    assert _kw(tenant, "merger talks company") == []  # no frequencies: no term is searched
    store = tenant._engine.store
    store.forget_cached(tenant.id)
    assert store.meta(tenant.id).schema_version >= 14  # migrated on open
    assert _frequencies(tenant) == written  # the count equals what the writes kept
    assert _kw(tenant, "merger talks company") == before
    assert fill_terms(ex, graph, page=3) == len(written)  # a recount in small pages: the same
    assert _frequencies(tenant) == written


REFERENCE_CORPUS = [
    ("c1", "Two companies announced a merger; the companies' boards approved it.", None),
    ("c2", "The company picnic is on Sunday near the lake.", "dana"),
    ("c3", "Echo " * 12 + "is a word repeated a dozen times in this memory.", None),
    ("c4", "Merger talks between the airlines stalled in March.", "omar"),
    (
        "c5",
        "A long memory about many things: " + "weather, gardens, rivers, cooking, " * 10 + "and a merger.",
        None,
    ),
    ("c6", "Dana approved the budget for the Atlas launch.", None),
    ("c7", "Omar runs the running club; he ran the marathon twice.", "omar"),
    ("c8", "The lake froze; the picnic moved indoors.", None),
]


def test_ranking_is_the_reference_bm25(tenant: Tenant) -> None:
    # The query ranks inside FalkorDB; falkmem/keyword/bm25.py is the reference it must equal:
    # same candidates, same scores (to float rounding), same order.
    from falkmem.keyword.bm25 import bm25_idf, bm25_scores_from_counts
    from falkmem.keyword.stem import stem_all, stem_counts
    from falkmem.keyword.tokens import query_terms
    from falkmem.storage.cypher import query

    for i, text, speaker in REFERENCE_CORPUS:
        tenant.add(text, id=i, speaker=speaker)
    ex, graph = tenant._engine.store.executor, tenant.graph
    props = [r["props"] for r in ex.run(graph, query("admin/export_artifacts"), {"after": -1, "limit": 100})]
    docs = {p["id"]: stem_counts(f"{p['text']} {p.get('attribution') or ''}") for p in props}
    assert all(p["n_tokens"] == docs[p["id"]][0] for p in props)
    n_docs, avgdl = len(docs), sum(n for n, _ in docs.values()) / len(docs)
    for q in ["company merger", "companies company merger", "echo", "what did omar say about running",
              "dana picnic lake", "approved budget merger talks"]:  # fmt: skip
        by_stem: dict[str, str] = {}
        for term, s in zip(query_terms(q), stem_all(query_terms(q)), strict=True):
            by_stem.setdefault(s, term)
        df = {}
        for s, t in by_stem.items():
            rows = ex.run(graph, query("retrieve/term_stats"), {"terms": [t]})
            df[s] = int(rows[0]["df"]) if rows else 0
        kept = [s for s in by_stem if df[s] > 0]
        cands = [(i, c, n) for i, (n, c) in docs.items() if any(s in c for s in kept)]
        want = bm25_scores_from_counts(kept, cands, df=df, n_docs=n_docs, avgdl=avgdl)
        ranked = sorted(((i, sc) for i, sc in want.items() if sc > 0), key=lambda kv: (-kv[1], kv[0]))
        got = _kw(tenant, q, k=20)
        assert [i for i, _ in got] == [i for i, _ in ranked], q
        assert all(abs(a - b) < 1e-9 for (_, a), (_, b) in zip(got, ranked, strict=True)), q
        # the unit fusion divides BM25 by: the kept terms' idf summed (what one of each scores)
        eng = tenant._engine
        mass = keyword_search(eng.store.executor, graph, q, _CFG, k=20).mass
        n = max(n_docs, len(cands))
        local = {s: sum(1 for _, c, _ in cands if c.get(s, 0) > 0) for s in kept}
        assert mass == pytest.approx(sum(bm25_idf(max(df[s], local[s]), n) for s in kept)), q
    assert [i for i, _ in _kw(tenant, "echo")] == ["c3"]


def test_stems_of_older_tenants_are_filled_by_migration_11(tenant: Tenant) -> None:
    # Tenants written before schema 11 have no stored stem counts: the keyword channel would
    # score nothing until the migration's backfill computes them.
    from falkmem.storage.backfill import fill_stems
    from falkmem.storage.cypher import Query, query

    for i, text, speaker in REFERENCE_CORPUS:
        tenant.add(text, id=i, speaker=speaker)
    before = _kw(tenant, "merger talks company")
    ex, graph = tenant._engine.store.executor, tenant.graph
    strip = Query(name="test/strip_stems", mode="write", params=frozenset(), doc="", source="test",
                  text="MATCH (a:Artifact) SET a.stems = NULL")  # fmt: skip
    ex.run(graph, strip)
    ex.run(graph, query("admin/set_schema_version"), {"version": 10, "now": 0.0})
    assert _kw(tenant, "merger talks company") == []  # nothing to score without the counts
    store = tenant._engine.store
    store.forget_cached(tenant.id)
    assert store.meta(tenant.id).schema_version >= 11  # migrated on open
    assert _kw(tenant, "merger talks company") == before
    assert fill_stems(ex, graph) == 0  # nothing left to fill


def test_an_export_from_before_schema_11_imports_with_its_stems(tenant: Tenant, mem: Memory) -> None:
    from falkmem.admin.transfer import export_tenant, import_lines

    for i, text, speaker in REFERENCE_CORPUS:
        tenant.add(text, id=i, speaker=speaker)
    lines = list(export_tenant(mem, tenant.id))
    for line in lines:  # what an older falkmem wrote: artifacts without stem counts
        if line.get("type") == "artifact":
            line["props"].pop("stems")
    target = f"{tenant.id}-old"
    mem.drop_tenant(target)
    try:
        import_lines(mem, target, lines)
        # the same ranking and scores: stem counts computed on import, corpus statistics recounted
        assert _kw(mem.tenant(target), "merger talks company") == _kw(tenant, "merger talks company") != []
    finally:
        mem.drop_tenant(target)
