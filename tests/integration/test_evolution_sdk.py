"""Memory that evolves, through the public SDK: keyed facts, supersession, as_of, history, forget."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime

import pytest

from falkmem import InputError, Memory, NotFound, Tenant
from falkmem.ingest.aggregate import evidence_ids
from falkmem.storage.cypher import query
from tests.helpers import fingerprint, graph_rows

KEY = "flight:ua 901:arrival"
TIMES = [
    ("10:05", "2026-03-01T08:00:00Z"),
    ("11:40", "2026-03-01T09:30:00Z"),
    ("12:15", "2026-03-01T11:00:00Z"),
]


def _flight(tenant: Tenant) -> list[str]:
    tenant.add("Dana booked flight UA 901 to Denver, confirmation code QX7T2P.", id="booking", session="s1")
    ids = []
    for hhmm, at in TIMES:
        ids.append(tenant.add(f"Flight UA 901 now arrives in Denver at {hhmm}.", key=KEY, at=at, kind="fact"))
    return ids


def test_flight_arrival_told_three_times(tenant: Tenant) -> None:
    ids = _flight(tenant)
    assert len(set(ids)) == 3
    ctx = tenant.context("When does flight UA 901 arrive in Denver?", budget_tokens=400)
    assert "12:15" in ctx.text and "11:40" not in ctx.text and "10:05" not in ctx.text
    hits = tenant.search("flight UA 901 arrival time", k=10)
    assert [h.id for h in hits if h.key] == [ids[2]]

    hist = tenant.history(KEY)
    assert [e.id for e in hist] == ids
    assert [e.status for e in hist] == ["superseded", "superseded", "active"]
    assert (
        hist[0].superseded_by == ids[1] and hist[1].superseded_by == ids[2] and hist[2].superseded_by is None
    )
    assert hist[1].supersedes == (ids[0],) and hist[0].reason == "key"
    assert hist[0].invalid_at == hist[1].valid_at and hist[2].invalid_at is None
    assert hist.current is not None and hist.current.id == ids[2]

    between = datetime(2026, 3, 1, 10, 15, tzinfo=UTC)
    past = tenant.search("flight UA 901 arrival time", k=10, as_of=between)
    texts = " ".join(h.text for h in past)
    assert "11:40" in texts and "12:15" not in texts and "10:05" not in texts
    assert "11:40" in " ".join(h.text for h in tenant.search("UA 901 arrival", as_of="2026-03-01T10:15:00"))
    before = tenant.search("flight UA 901 arrival time", k=10, as_of="2026-03-01T08:30:00+00:00")
    assert "10:05" in " ".join(h.text for h in before)
    old_ctx = tenant.context("When does flight UA 901 arrive?", as_of=between, budget_tokens=400)
    assert "11:40" in old_ctx.text and "12:15" not in old_ctx.text

    full = tenant.context(
        "When does flight UA 901 arrive in Denver?", budget_tokens=600, include_history=True
    )
    assert all(t in full.text for t in ("10:05", "11:40", "12:15")) and "superseded" in full.text


def test_restating_is_idempotent_and_late_facts_are_stored_superseded(tenant: Tenant) -> None:
    ids = _flight(tenant)
    again = tenant.add(
        "flight UA 901 now arrives in  Denver at 12:15", key=KEY.upper(), at="2026-03-01T12:00:00Z"
    )
    assert again == ids[2]
    late = tenant.add("Flight UA 901 now arrives in Denver at 11:00.", key=KEY, at="2026-03-01T09:00:00Z")
    hist = tenant.history(KEY)
    assert [e.id for e in hist] == [ids[0], late, ids[1], ids[2]]
    assert [e.status for e in hist].count("active") == 1 and hist[1].status == "superseded"
    assert hist[1].superseded_by == ids[1] and hist[2].supersedes == (late,)
    assert hist[0].invalid_at == hist[1].valid_at


def test_deadline_march_then_august_links_supersedes(mem: Memory, tenant: Tenant) -> None:
    march = tenant.add(
        "The DORA compliance filing deadline is 31 March 2026.", key="deadline:dora filing", at="2026-01-10"
    )
    august = tenant.add(
        "The DORA compliance filing deadline moved to 31 August 2026.",
        key="deadline:dora filing",
        at="2026-02-20",
    )
    assert tenant.get(march).status == "superseded" and tenant.get(august).status == "active"
    assert tenant.get(march).invalid_at == tenant.get(august).valid_at
    assert tenant.search("DORA filing deadline", k=5).ids[0] == august
    assert march not in tenant.search("DORA filing deadline", k=5).ids
    edges = [r for r in graph_rows(mem, tenant.graph) if len(r) == 4 and r[0] == "SUPERSEDES"]
    assert [(e[2]["id"], e[3]["id"]) for e in edges] == [(august, march)]


@pytest.mark.parametrize("batch_size", [64, 1])
def test_three_versions_in_one_add_many_chain_in_write_order(
    mem: Memory, tenant: Tenant, batch_size: int
) -> None:
    # No `at`: the three versions share valid_at and created_at; the write order decides.
    texts = [f"Flight UA 901 now arrives in Denver at {hhmm}." for hhmm in ("11:40", "10:05", "12:15")]
    ids = tenant.add_many(
        [{"text": t, "key": KEY, "kind": "fact"} for t in texts], batch_size=batch_size
    ).added
    assert len(ids) == 3
    hist = tenant.history(KEY)
    assert [e.id for e in hist] == list(ids)
    assert [e.status for e in hist] == ["superseded", "superseded", "active"]
    assert hist.current is not None and hist.current.id == ids[2]
    assert [e.superseded_by for e in hist] == [ids[1], ids[2], None]
    edges = [r for r in graph_rows(mem, tenant.graph) if len(r) == 4 and r[0] == "SUPERSEDES"]
    assert sorted((e[2]["id"], e[3]["id"]) for e in edges) == sorted([(ids[1], ids[0]), (ids[2], ids[1])])
    hits = tenant.search("flight UA 901 arrival time", k=10)
    assert [h.id for h in hits if h.key] == [ids[2]]


def test_derived_key_supersedes_single_valued_relation(tenant: Tenant) -> None:
    old = tenant.add("Priya Chandran reports to Marcus Webb.", kind="fact", at="2026-01-01")
    same = tenant.add("Priya Chandran reports to Marcus Webb", kind="fact", at="2026-01-05")
    assert same == old and tenant.get(old).key == "reports_to:priya chandran"
    new = tenant.add("Priya Chandran reports to Elena Park.", kind="fact", at="2026-02-01")
    assert tenant.get(old).status == "superseded" and tenant.get(new).status == "active"
    other = tenant.add("Priya Chandran reports to Elena Park and leads the Atlas team.", at="2026-02-02")
    assert tenant.get(other).key is None  # an episode gets no derived key
    assert [e.id for e in tenant.history(entity="priya chandran")][:2] == [old, new]


def test_two_threads_restating_one_key_leave_one_active(tenant: Tenant) -> None:
    tenant.add("warm up", id="w")
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            for i in range(100):
                tenant.add(f"The build server status is {name}-{i}.", key="status:build server")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("red", "green")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    hist = tenant.history("status:build server", limit=1000)
    assert len(hist) == 200
    assert [e.status for e in hist].count("active") == 1
    assert hist[-1].status == "active"


def test_forget_user_erases_text_everywhere_and_spares_other_tenants(
    mem: Memory, tenant: Tenant, tenant_id: str
) -> None:
    other = mem.tenant(tenant_id + "-other")
    try:
        dana = [
            "Dana's passport number is X1234567 and she flies with Lufthansa.",
            "Dana Whitfield told me her daughter Maisie starts school at Brookside Academy.",
            "Dana prefers aisle seats on long-haul flights.",
        ]
        for i, text in enumerate(dana):
            tenant.add(
                text, id=f"d{i}", user="dana", session=f"dana-s{i % 2}", speaker="dana", metadata={"n": i}
            )
        tenant.add(
            "Omar Haddad leads the Atlas team at Brookside Academy.", id="o1", user="omar", session="om"
        )
        tenant.add("Lufthansa flights to Denver leave at 9am.", id="o2", user="omar", session="om")
        other.add(dana[0], id="d0", user="dana", session="x")
        other_before = fingerprint(mem, other.graph)
        h0 = tenant.health()

        result = tenant.forget(user="dana")
        assert result.artifacts == 3 and set(result.ids) == {"d0", "d1", "d2"}
        assert result.entities_removed >= 1 and result.sessions_removed == 2 and result.users_removed == 1
        assert result.tokens > 0

        dump = json.dumps(graph_rows(mem, tenant.graph), default=str)
        for text in dana:
            assert text not in dump
        for fragment in ("X1234567", "Maisie", "aisle seats"):
            assert fragment not in dump
        with pytest.raises(NotFound):
            tenant.get("d0")
        assert tenant.count() == 2
        assert all(h.id.startswith("o") for h in tenant.search("Dana passport Lufthansa", k=5))
        assert fingerprint(mem, other.graph) == other_before
        assert other.get("d0").text == dana[0]

        meta = mem._engine.store.executor.run(
            tenant.graph, query("retrieve/term_stats"), {"terms": ["lufthansa"]}
        )
        assert meta[0]["n_docs"] == 2 and meta[0]["df"] == 1
        h1 = tenant.health()
        assert h1.orphan_entities == 0 and h1.artifacts == {"active": 2} and h1.entities < h0.entities
        assert tenant.forget(user="dana").artifacts == 0
    finally:
        mem.drop_tenant(tenant_id + "-other")


def test_forget_one_id_and_session_reduce_edge_evidence(mem: Memory, tenant: Tenant) -> None:
    tenant.add("Priya Chandran leads the Atlas team.", id="a", session="s1")
    tenant.add("Priya Chandran leads the Atlas team, everyone agrees.", id="b", session="s2")
    tenant.add("The Atlas team shipped Project Helios.", id="c", session="s2")
    edges = [
        r
        for r in graph_rows(mem, tenant.graph)
        if len(r) == 4 and r[0] == "RELATED_TO" and r[1]["relation"] == "leads"
    ]
    assert evidence_ids(edges[0][1]) == ["a", "b"]
    r1 = tenant.forget("a")
    assert r1.artifacts == 1 and r1.edges_updated >= 1 and r1.edges_removed == 0 and r1.sessions_removed == 1
    edges = [
        r
        for r in graph_rows(mem, tenant.graph)
        if len(r) == 4 and r[0] == "RELATED_TO" and r[1]["relation"] == "leads"
    ]
    assert evidence_ids(edges[0][1]) == ["b"] and edges[0][1]["weight"] == pytest.approx(1.0)
    r2 = tenant.forget(session="s2")
    assert r2.artifacts == 2 and r2.edges_removed >= 1 and r2.entities_removed >= 3
    assert [r for r in graph_rows(mem, tenant.graph) if len(r) == 4] == []
    assert tenant.delete("a") is False


def test_delete_cleans_up_like_forget(mem: Memory, tenant: Tenant) -> None:
    tenant.add("Zanzibar Logistics built the Kestrel router.", id="z")
    tenant.add("Unrelated note about lunch.", id="n")
    assert tenant.delete("z") is True
    labels = [r[0] for r in graph_rows(mem, tenant.graph) if len(r) == 2]
    assert ["Entity"] not in labels
    assert tenant.health().orphan_entities == 0


def test_bad_input_gives_clear_errors(mem: Memory, tenant: Tenant, tenant_id: str) -> None:
    tenant.add("Something to search.", id="x", key="k:1")
    with pytest.raises(InputError) as err:
        tenant.search("something", as_of="last tuesday")
    assert err.value.field == "as_of"
    with pytest.raises(InputError) as err:
        tenant.context("something", as_of=12345)  # type: ignore[arg-type]
    assert err.value.field == "as_of"
    with pytest.raises(NotFound):
        tenant.history("no such key")
    with pytest.raises(NotFound):
        tenant.history(entity="Nobody Known")
    with pytest.raises(InputError) as err:
        tenant.forget()
    assert err.value.field == "forget"
    with pytest.raises(InputError):
        tenant.forget("x", user="dana")
    with pytest.raises(InputError):
        tenant.history()
    with pytest.raises(InputError) as err:
        tenant.add("x", key="   ")
    assert "key" in str(err.value)
    with pytest.raises(InputError):
        tenant.consolidate(threshold=1.5)


def test_retention_by_kind(tenant: Tenant, mem: Memory) -> None:
    t = mem.tenant(tenant.id)
    t.add("Chit-chat about the weather.", id="e1", kind="episode")
    t.add("The office wifi password rotates monthly.", id="f1", kind="fact")
    engine = mem._engine
    old = engine.settings
    engine.settings = old.model_copy(update={"retention_days": {"episode": 1.0}})
    try:
        assert t.maintain().expired == {}
        out = t.maintain(now=datetime.now(UTC).replace(year=datetime.now(UTC).year + 1))
    finally:
        engine.settings = old
    assert out.expired == {"episode": 1} and out.forgotten.artifacts == 1
    assert t.count() == 1 and t.get("f1").kind == "fact"
    with pytest.raises(InputError) as err:
        t.maintain(now="soon")
    assert err.value.field == "now"


def test_consolidate_and_health(mem: Memory, tenant: Tenant) -> None:
    tenant.add("Dana is allergic to peanuts.", id="p1", at="2026-01-01")
    tenant.add("Dana is allergic to peanuts!", id="p2", at="2026-01-02")
    tenant.add("dana is allergic to peanuts.", id="p3", at="2026-01-03")
    tenant.add("Invoice 4471 totals 1200 euros.", id="i1")
    tenant.add("Invoice 4472 totals 1200 euros.", id="i2")
    tenant.add("The Atlas team is based in the Bangalore office.", id="b1")
    h = tenant.health()
    assert h.duplicate_candidates >= 3 and h.artifacts == {"active": 6} and h.superseded_ratio == 0.0
    assert h.hubs and h.hubs[0].degree >= 1 and h.nodes > 6 and h.edges_per_node > 0
    dry = tenant.consolidate(dry_run=True)
    assert dry.linked == 0 and ("p1", "p2", "p3") in dry.groups
    assert not any("i1" in g and "i2" in g for g in dry.groups)  # different numbers: never duplicates
    out = tenant.consolidate()
    assert out.linked == 2 and out.scanned == 6
    assert tenant.get("p2").status == "superseded" and tenant.get("p1").status == "active"
    assert [h.id for h in tenant.search("peanut allergy", k=3)].count("p1") == 1
    assert not {"p2", "p3"} & set(tenant.search("peanut allergy", k=6).ids)
    assert not {"p2", "p3"} & set(tenant.search("peanut allergy", k=6, as_of="2026-06-01").ids)
    dup = [r for r in graph_rows(mem, tenant.graph) if len(r) == 4 and r[0] == "DUPLICATE_OF"]
    assert sorted((e[2]["id"], e[3]["id"]) for e in dup) == [("p2", "p1"), ("p3", "p1")]
    h2 = tenant.health()
    assert h2.superseded_ratio == pytest.approx(2 / 6, abs=1e-3) and h2.duplicate_candidates == 0
    assert tenant.consolidate().linked == 0
