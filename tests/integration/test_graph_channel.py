"""The graph channel (retrieve/expand) and score fusion on a real FalkorDB with real MiniLM."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from falkmem import Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.storage.cypher import query
from tests.helpers import unit_vector


@pytest.fixture
def bare(store_path: Path, embedder: SentenceTransformerEmbedder, tenant_id: str) -> Iterator[Tenant]:
    """A tenant whose memories reference no entity (extractor="none")."""
    url = os.environ.get("FALKMEM_TEST_URL")
    with (
        Memory(url=url, embedder=embedder, extractor="none")
        if url
        else Memory(store_path, embedder=embedder, extractor="none")
    ) as m:
        m.drop_tenant(tenant_id)
        yield m.tenant(tenant_id)
        m.drop_tenant(tenant_id)


def test_hybrid_keeps_the_vector_channel_when_nothing_seeds_the_walk(bare: Tenant) -> None:
    """Issue 12 item 1: the old one-query walk returned no row when no entity seeded it, and
    the hybrid route lost the vector hits with it."""
    bare.add("Atlas team built Project Helios.", id="a")
    bare.add("The cafeteria serves soup on Mondays.", id="b")
    vector = bare.search("Who built Project Helios?", k=5, route="vector")
    hybrid = bare.search("Who built Project Helios?", k=5, route="hybrid")
    assert sorted(vector.ids) == sorted(hybrid.ids) == ["a", "b"]
    assert hybrid.route == "hybrid" and hybrid.ids[0] == "a"


def test_an_edge_restated_ten_thousand_times_is_not_walked(tenant: Tenant) -> None:
    """Issue 12 item 5: a RELATED_TO edge whose evidence list holds 10,000 ids, between two
    entities named by 10,000 memories each. The graph channel follows neither (hub guard by
    mention count, no edge is read) and the answer stays first; the result is the same twice."""
    tenant.add_many(
        [
            {"id": f"t{i}", "text": f"Ticket {i}: Acme Cloud depends on Zeta DB.", "embedding": unit_vector(i),
             "entities": ["Acme Cloud", "Zeta DB"], "triples": [("Acme Cloud", "depends on", "Zeta DB")]}
            for i in range(10_000)
        ],
        batch_size=200,  # every restatement appends to the edge's evidence list: keep each write short
    )  # fmt: skip
    tenant.add("Priya Chandran runs the Zeta DB upgrade for Acme Cloud.", id="p1", kind="fact")
    tenant.add("Priya Chandran reports to Marcus Webb.", id="p2", kind="fact")
    q = "Who runs the Zeta DB upgrade?"
    first = tenant.explain(q, route="hybrid", max_hops=2)
    again = tenant.explain(q, route="hybrid", max_hops=2)
    assert first.hits[0].id == "p1"
    graph = dict(first.channels["graph"])
    # no hub mention was pulled in: the only tickets are seeds reaching themselves (own ids)
    assert sum(i.startswith("t") for i in graph) <= tenant._engine.settings.graph.seed_k
    assert "p2" in graph and "Priya Chandran" in first.via["p2"]  # the bridge still works
    assert first.channels == again.channels and first.fused == again.fused


def test_the_graph_channel_honours_filters(tenant: Tenant) -> None:
    tenant.add("Atlas team built Project Helios.", id="a", session="s1", kind="fact")
    tenant.add("Priya Chandran leads the Atlas team.", id="b", session="s2", kind="fact")
    tenant.add("Priya Chandran joined the Atlas team in May.", id="c", session="s1", kind="fact")
    r = tenant.explain("Who built Project Helios?", route="hybrid", session="s1")
    assert {i for i, _ in r.channels["graph"]} <= {"a", "c"}
    assert {h.id for h in r.hits} <= {"a", "c"} and "c" in dict(r.channels["graph"])
    unfiltered = tenant.explain("Who built Project Helios?", route="hybrid")
    assert "b" in dict(unfiltered.channels["graph"])


def test_entities_the_query_names_are_not_followed_as_bridges(tenant: Tenant) -> None:
    """A memory that merely mentions what the query names is the vector channel's business."""
    tenant.add("Atlas team built Project Helios.", id="a", kind="fact")
    tenant.add(
        "Marcus booked the review room for Friday. He will bring the Project Helios budget.",
        id="b",
        kind="fact",
    )
    tenant.add("Priya Chandran leads the Atlas team.", id="c", kind="fact")
    e = tenant.explain("Who built Project Helios?", route="hybrid", k=3)
    assert e.plan.entities == (("project helios", "Project Helios"),)
    assert "Project Helios" not in e.via.get("b", [])  # named outside b's head: not a link
    assert "Atlas team" in e.via.get("c", [])
    assert "c" in [h.id for h in e.hits]


def test_an_entity_the_query_names_leads_to_the_memories_about_it(
    tenant: Tenant, store_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    """The passage about the film a question names is the first hop of its chain, however
    little its text looks like the question (HippoRAG's query entities in the reset vector)."""
    tenant.add_many([
        {"id": "about", "text": "Izgoy\nIzgoy is the second studio album by the Russian rock band Kino."},
        {"id": "other", "text": "The rock band Kino toured Siberia."},
        *({"id": f"n{i}", "text": f"Russia invaded a neighbouring country in year {1900 + i}."} for i in range(12)),
    ])  # fmt: skip
    q = "When did the country of Izgoy's performer invade Manchuria?"
    e = tenant.explain(q, route="hybrid", k=5)
    assert ("izgoy", "Izgoy") in e.plan.entities
    assert "Izgoy" in e.via.get("about", [])
    assert dict(e.channels["graph"])["about"] > 0
    url = os.environ.get("FALKMEM_TEST_URL")
    kwargs = {"embedder": embedder, "graph": {"named_weight": 0.0}}
    with Memory(url=url, **kwargs) if url else Memory(store_path, **kwargs) as off:
        without = off.tenant(tenant.id).explain(q, route="hybrid", k=5)
    assert "Izgoy" not in without.via.get("about", [])


def test_no_unread_entity_fulltext_index_is_kept(tenant: Tenant, mem: Memory) -> None:
    """Issue 12 item 16: the Entity full-text index was written on every write and never read."""
    tenant.add("Priya Chandran leads the Atlas team.")
    rows = mem.admin.store.executor.run(tenant.graph, query("admin/index_status"))
    kinds = {(r["label"], t) for r in rows for t in (r["types"] or {}).get("name", [])}
    assert ("Entity", "FULLTEXT") not in kinds
    assert any(r["label"] == "Artifact" and "text" in (r["properties"] or []) for r in rows)


def test_a_keyword_only_search_does_not_embed_the_query(tenant: Tenant) -> None:
    """The keyword channel needs no embedding: computing one would be work done for nothing."""
    tenant.add("Booked flight UA 837, confirmation code QX7RTP.", id="b1")
    r = tenant.search("QX7RTP", k=3, channels={"keyword"})
    assert r.ids == ["b1"] and "embed" not in r.timings_ms
    assert "embed" in tenant.search("QX7RTP", k=3).timings_ms


def test_a_chat_turn_is_not_about_what_its_first_sentence_names(tenant: Tenant) -> None:
    """An episode (the default kind: a conversation turn) has no head unless it has a title
    line; a fact is about what it names. Following first sentences of chat turns cost recall
    on LongMemEval (extraction/head.py)."""
    tenant.add("Atlas team built Project Helios.", id="a", kind="fact")
    tenant.add("Priya Chandran leads the Atlas team.", id="fact", kind="fact")
    tenant.add("Atlas team lunch was fun! We talked about the offsite.", id="turn")
    e = tenant.explain("Who built Project Helios?", route="hybrid", k=5)
    graph = dict(e.channels["graph"])
    assert "fact" in graph and "Atlas team" in e.via["fact"]
    assert "turn" not in graph
