"""The links channel against the real store: turns around a seed along NEXT, memories sharing a
rare identifier, filters and status honoured; and what a search does with it."""

from __future__ import annotations

from falkmem import Tenant
from falkmem.config import LinksConfig
from falkmem.retrieval.filters import build_filters
from falkmem.retrieval.links import link_search


def _links(tenant: Tenant, seeds: list[tuple[str, float]], **kw: object) -> dict[str, tuple[float, str]]:
    eng = tenant._engine
    vector = eng.embedder.embed(["anything"])[0]
    filters = kw.pop("filters", None)
    cfg = LinksConfig.model_validate(
        {"window": 2, "decay": 0.5, "rare_mentions": kw.pop("rare_max", 5), **kw}
    )
    hits = link_search(eng.store.executor, tenant.graph, vector, cfg, seeds=seeds, filters=filters)  # type: ignore[arg-type]
    return {h.row["id"]: (h.weight, h.via) for h in hits}


def test_turns_around_a_seed_weighted_by_distance(tenant: Tenant) -> None:
    tenant.add_many([{"id": f"t{i}", "text": f"message number {i}", "session": "chat"} for i in range(8)])
    got = _links(tenant, [("t3", 1.0)])
    assert {i: w for i, (w, _) in got.items()} == {"t1": 0.5, "t2": 1.0, "t4": 1.0, "t5": 0.5}
    assert {via for _, via in got.values()} == {"t3"}
    assert set(_links(tenant, [("t3", 1.0)], window=1)) == {"t2", "t4"}
    assert _links(tenant, [("t3", 1.0)], window=0, rare_max=0) == {}
    both = _links(tenant, [("t3", 1.0), ("t5", 0.4)])
    assert both["t4"] == (1.0, "t3") and both["t6"] == (0.4, "t5")  # the strongest link wins
    assert both["t3"] == (0.2, "t5")  # a seed reached from another seed keeps that link


def test_filters_and_status_bound_what_is_reached(tenant: Tenant) -> None:
    tenant.add_many([{"id": f"t{i}", "text": f"message number {i}", "session": "chat", "user": "u1" if i < 3 else "u2"}
                     for i in range(5)])  # fmt: skip
    tenant.delete_many(["t1"])  # erased: the chain is bridged t0 -> t2
    assert set(_links(tenant, [("t2", 1.0)], window=1)) == {"t0", "t3"}
    only_u1 = build_filters(user="u1")
    assert set(_links(tenant, [("t2", 1.0)], window=2, filters=only_u1)) == {"t0"}


def test_a_rare_identifier_links_memories_of_other_sessions(tenant: Tenant) -> None:
    tenant.add("Booked my flight: TP 1351, confirmation LX4K9Q.", id="b", session="s1")
    tenant.add("TP 1351 is delayed to 11:40.", id="d", session="s2")
    tenant.add("Nothing about flights here.", id="x", session="s3")
    got = _links(tenant, [("b", 1.0)], window=0)
    assert set(got) == {"d"} and got["d"][1] == "TP 1351" and 0 < got["d"][0] < 1.0
    assert _links(tenant, [("b", 1.0)], window=0, rare_max=1) == {}  # named by 2 memories: above the cap


def test_a_search_on_a_chat_follows_the_links(tenant: Tenant) -> None:
    tenant.add_many([
        {"id": "k1", "speaker": "Kevin", "session": "s", "text": "Kevin: Do you play any sports?"},
        {"id": "p1", "speaker": "Paola", "session": "s", "text": "Paola: Tennis, mostly on weekends with my sister."},
        {"id": "k2", "speaker": "Kevin", "session": "s", "text": "Kevin: Nice, I should try it."},
        *({"id": f"n{i}", "speaker": "Kevin", "session": f"o{i}", "text": f"Kevin: The weather on day {i} was mild."}
          for i in range(20)),
    ])  # fmt: skip
    e = tenant.explain("What sports does Paola play?", k=5)
    assert e.plan.links and e.query_route == "hybrid" and "links" in e.channels
    assert e.linked.get("p1") is not None
    assert e.hits[0].id == "p1"  # Paola's answer before Kevin's question (it only asks)
    plain = tenant.explain("What sports does Paola play?", k=5, route="vector")
    assert "links" not in plain.channels and not plain.plan.links
