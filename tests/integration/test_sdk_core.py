"""The SDK's remember and recall on a real embedded FalkorDB with the real MiniLM embedder."""

from __future__ import annotations

import pytest

from falkmem import (
    DimensionMismatch,
    InputError,
    InvalidTenantId,
    LimitExceeded,
    Memory,
    NotFound,
    Tenant,
    TenantNotFound,
)
from falkmem.storage.cypher import query
from tests.helpers import fingerprint


def test_add_get_search_count_delete(tenant: Tenant) -> None:
    mid = tenant.add(
        "Priya Chandran leads the Atlas team.",
        id="m1",
        session="s1",
        speaker="dana",
        user="dana",
        metadata={"source": "chat", "n": 1},
    )
    tenant.add("The cafeteria serves pasta on Fridays.", id="m2", kind="note")
    assert mid == "m1"
    assert tenant.count() == 2
    got = tenant.get("m1")
    assert got.text == "Priya Chandran leads the Atlas team."
    assert (got.session, got.speaker, got.user, got.kind) == ("s1", "dana", "dana", "episode")
    assert got.metadata == {"source": "chat", "n": 1}
    assert got.created_at is not None and got.valid_at is not None

    result = tenant.search("Who leads Atlas?", k=2)  # a relational cue: the graph joins the vector search
    assert result.route == "hybrid" and result.reranker == "none"
    assert result.ids[0] == "m1"
    assert result[0].score > result[1].score  # higher is better
    s = tenant._engine.settings  # fused score: scaled similarity (0..1) + keyword and graph evidence
    assert 0.0 < result[0].score <= 1.0 + s.keyword.weight + s.graph.weight * (1 + s.graph.head_weight)
    assert "embedding" not in result[0].model_dump()

    assert tenant.delete("m2") is True
    assert tenant.delete("m2") is False
    assert tenant.count() == 1
    with pytest.raises(NotFound):
        tenant.get("m2")


def test_add_is_idempotent_per_id(tenant: Tenant) -> None:
    tenant.add("A fact worth keeping.", id="same")
    again = tenant.add_many(
        [{"id": "same", "text": "A fact worth keeping."}, {"id": "new", "text": "Another."}]
    )
    assert again.skipped == ("same",) and again.added == ("new",)
    assert tenant.count() == 2


def test_add_many_thousand_records_round_trip(tenant: Tenant) -> None:
    topics = ["invoice", "flight", "meeting", "deadline", "recipe", "password reset", "budget", "hiring"]
    records = [
        {
            "id": f"r{i}",
            "text": f"Note {i}: the {topics[i % len(topics)]} item number {i} for project P{i % 37}.",
        }
        for i in range(1000)
    ]
    progress: list[tuple[int, int]] = []
    out = tenant.add_many(records, batch_size=100, on_progress=lambda d, t: progress.append((d, t)))
    assert len(out.added) == 1000 and progress[-1] == (1000, 1000) and len(progress) == 10
    assert tenant.count() == 1000
    hits = tenant.search("the flight item number 9 for project P9", k=10)
    assert len(hits) == 10
    assert len(set(hits.ids)) == 10  # no duplicates
    assert "r9" in hits.ids
    assert all("flight" in h.text for h in hits[:5])


def test_two_tenants_never_see_each_other(mem: Memory, tenant_id: str) -> None:
    a, b = mem.tenant(tenant_id + "-a"), mem.tenant(tenant_id + "-b")
    try:
        a.add("Alpha's secret launch code is 1234.", id="a1")
        b.add("Beta keeps its roadmap in the wiki.", id="b1")
        assert a.search("launch code secret", k=5).ids == ["a1"]
        assert b.search("launch code secret", k=5).ids == ["b1"]
        with pytest.raises(NotFound):
            b.get("a1")
        assert a.count() == 1 and b.count() == 1
    finally:
        mem.drop_tenant(tenant_id + "-a")
        mem.drop_tenant(tenant_id + "-b")


def test_reading_a_missing_tenant_does_not_create_it(mem: Memory, tenant_id: str) -> None:
    ghost = mem.tenant(tenant_id)
    for call in (lambda: ghost.search("anything"), ghost.count, lambda: ghost.get("x")):
        with pytest.raises(TenantNotFound):
            call()
    assert not mem.has_tenant(tenant_id)
    assert tenant_id not in mem.tenants()


def test_tenant_lifecycle(mem: Memory, tenant_id: str) -> None:
    t = mem.create_tenant(tenant_id)
    assert mem.has_tenant(tenant_id) and tenant_id in mem.tenants()
    assert t.count() == 0
    assert mem.drop_tenant(tenant_id) is True
    assert mem.drop_tenant(tenant_id) is False
    assert not mem.has_tenant(tenant_id)


@pytest.mark.parametrize(
    "bad_id",
    ["a b", "../x", "x') MATCH (n) DETACH DELETE n //", "", "A", "-x", "x" * 64, "é", "a/b", None, 7],
)
def test_hostile_tenant_ids_are_refused(mem: Memory, bad_id: object) -> None:
    with pytest.raises(InvalidTenantId) as err:
        mem.tenant(bad_id)  # type: ignore[arg-type]
    assert err.value.field == "tenant_id"


BAD_RECORDS = [
    ({"text": ""}, "text", InputError),
    ({"text": "   \n\t "}, "text", InputError),
    ({"text": "x" * 40_000}, "text", LimitExceeded),
    ({"text": "ok", "kind": "gossip"}, "kind", InputError),
    ({"text": "ok", "metadata": {"when": object()}}, "metadata", InputError),
    ({"text": "ok", "metadata": {"big": "x" * 20_000}}, "metadata", LimitExceeded),
    ({"text": "ok", "at": "yesterday-ish"}, "at", InputError),
    ({"text": "ok", "embedding": [0.1] * 7}, "embedding", DimensionMismatch),
    ({"text": "ok", "colour": "red"}, "colour", InputError),
]


@pytest.mark.parametrize(("record", "field", "error"), BAD_RECORDS)
def test_bad_input_names_the_field_and_writes_nothing(
    mem: Memory, tenant: Tenant, record: dict[str, object], field: str, error: type[Exception]
) -> None:
    tenant.add("An existing memory.", id="keep")
    before = fingerprint(mem, tenant.graph)
    with pytest.raises(error) as err:
        tenant.add_many([{"text": "a good record", "id": "good"}, record])
    assert field in str(err.value)
    assert fingerprint(mem, tenant.graph) == before


@pytest.mark.parametrize("k", [0, -1, 201, 2.5, True])
def test_bad_k_is_refused(tenant: Tenant, k: object) -> None:
    tenant.add("something", id="s")
    with pytest.raises(LimitExceeded) as err:
        tenant.search("something", k=k)  # type: ignore[arg-type]
    assert err.value.field == "k"


def test_empty_and_overlong_queries_are_refused(tenant: Tenant) -> None:
    tenant.add("something", id="s")
    with pytest.raises(InputError):
        tenant.search("  ")
    with pytest.raises(LimitExceeded):
        tenant.search("q" * 5000)


class WrongDimension:
    name = "wrong"
    dimension = 384

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[0.5] * 12 for _ in texts]


def test_custom_embedder_with_wrong_dimension_writes_nothing(
    mem: Memory, tenant: Tenant, store_path: object
) -> None:
    tenant.add("seed memory", id="seed")
    before = fingerprint(mem, tenant.graph)
    other = Tenant(tenant.id, _swap_embedder(mem, WrongDimension()))
    with pytest.raises(DimensionMismatch) as err:
        other.add("this one gets a 12-d vector")
    assert "embedding" in str(err.value)
    assert fingerprint(mem, tenant.graph) == before


def _swap_embedder(mem: Memory, embedder: object) -> object:
    import copy

    eng = copy.copy(mem._engine)
    eng.embedder = embedder  # type: ignore[assignment]
    return eng


def test_query_loader_exposes_names() -> None:
    assert query("retrieve/vector_search").mode == "read"
    assert query("ingest/create_artifacts").mode == "write"
