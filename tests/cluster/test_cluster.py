"""The SDK on a local Redis Cluster: slot routing, tenants on every shard, fan-out, replica reads."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from falkmem import Memory
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.storage.cluster import FalkmemCluster
from falkmem.testing import HashEmbedder

from .local_cluster import LocalCluster, tenants_on_distinct_shards, wait_replicated

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def cmem(local_cluster: LocalCluster) -> Iterator[Memory]:
    """A Memory on the cluster's seed list, with the fast hash embedder."""
    m = Memory(url=local_cluster.seeds_url(), embedder=HashEmbedder())
    yield m
    m.close()


@pytest.fixture(scope="module")
def shard_tenants(local_cluster: LocalCluster) -> dict[int, str]:
    """One tenant id per primary."""
    return tenants_on_distinct_shards(local_cluster, "shard")


def _graph_list(cluster: LocalCluster, port: int) -> list[str]:
    return sorted(cluster.node(port).client().execute_command("GRAPH.LIST"))


def test_every_url_form_opens_the_cluster(local_cluster: LocalCluster) -> None:
    one = local_cluster.nodes[0].addr
    for url in (local_cluster.seeds_url(), f"redis://{one}", f"redis+cluster://{one}"):
        with Memory(url=url, embedder=HashEmbedder()) as m:
            assert isinstance(m._engine.store.db.connection, FalkmemCluster), url
            m.tenants()  # answers


def test_tenants_on_different_shards(
    local_cluster: LocalCluster,
    cmem: Memory,
    shard_tenants: dict[int, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert len(set(shard_tenants)) == 3, "one tenant on each of the 3 primaries"
    with capsys.disabled():
        print(f"\ntenant → shard (primary port): { {t: p for p, t in shard_tenants.items()} }")
    for port, tid in shard_tenants.items():
        t = cmem.tenant(tid)
        t.add_many([{"id": f"{tid}-{i}", "text": f"{tid} fact number {i}"} for i in range(30)])
        assert t.count() == 30
        assert t.search(f"{tid} fact number 7", k=1).ids == [f"{tid}-7"]
        assert t.get(f"{tid}-3").text == f"{tid} fact number 3"
        # The graph lives on the shard that owns its slot, and only there.
        assert f"falkmem:{tid}" in _graph_list(local_cluster, port)
        others = [p for p in shard_tenants if p != port]
        assert all(f"falkmem:{tid}" not in _graph_list(local_cluster, p) for p in others)


def test_tenants_lists_every_shard_and_drop_works(cmem: Memory, shard_tenants: dict[int, str]) -> None:
    ids = sorted(shard_tenants.values())
    for tid in ids:
        cmem.tenant(tid).add("one memory", id="m1")
    assert set(ids) <= set(cmem.tenants())
    assert all(cmem.has_tenant(tid) for tid in ids)
    dropped = ids[0]
    assert cmem.drop_tenant(dropped) is True
    assert dropped not in cmem.tenants()
    assert not cmem.has_tenant(dropped)
    assert cmem.drop_tenant(dropped) is False
    assert set(ids[1:]) <= set(cmem.tenants())


def test_admin_commands_reach_every_primary(local_cluster: LocalCluster, cmem: Memory) -> None:
    store = cmem._engine.store
    answers = store.on_every_primary("GRAPH.CONFIG", "GRAPH.CONFIG", "GET", "TIMEOUT_MAX")
    assert sorted(answers) == sorted(f"127.0.0.1:{p}" for p in local_cluster.primary_ports())
    assert all(a == ["TIMEOUT_MAX", 60000] for a in answers.values())
    modules = store.on_every_primary("MODULE LIST", "MODULE", "LIST")
    assert len(modules) == 3 and all("graph" in str(m).lower() for m in modules.values())


def test_minilm_add_and_search(
    local_cluster: LocalCluster, embedder: SentenceTransformerEmbedder, shard_tenants: dict[int, str]
) -> None:
    tid = next(iter(shard_tenants.values())) + "-minilm"
    with Memory(url=local_cluster.seeds_url(), embedder=embedder) as m:
        t = m.tenant(tid)
        t.add_many(
            [
                {"id": "pets", "text": "Dana adopted a golden retriever puppy named Biscuit."},
                {"id": "work", "text": "The quarterly budget review moved to Thursday."},
                {"id": "food", "text": "Sam is allergic to peanuts and shellfish."},
            ]
        )
        assert t.search("what dog does Dana have?", k=1).ids == ["pets"]
        assert t.search("food allergies", k=1).ids == ["food"]
        m.drop_tenant(tid)


def test_hybrid_route(local_cluster: LocalCluster, cmem: Memory) -> None:
    for tid in tenants_on_distinct_shards(local_cluster, "hybrid").values():
        t = cmem.tenant(tid)
        t.add(
            "Priya Chandran leads the Atlas team.",
            id="lead",
            entities=["Priya Chandran", "Atlas"],
            triples=[("Priya Chandran", "leads", "Atlas")],
            kind="fact",
        )
        t.add("The Atlas team ships the billing service.", id="ships", entities=["Atlas"], kind="fact")
        t.add("Lunch is at noon on Fridays.", id="lunch")
        r = t.search("what does Priya Chandran's team ship?", k=3, route="hybrid")
        assert r.route == "hybrid"
        assert "ships" in r.ids
        cmem.drop_tenant(tid)


def test_history(local_cluster: LocalCluster, cmem: Memory) -> None:
    for tid in tenants_on_distinct_shards(local_cluster, "history").values():
        t = cmem.tenant(tid)
        t.add("Dana lives in Lisbon.", id="v1", key="dana-city", at="2024-01-01T00:00:00Z")
        t.add("Dana moved to Porto.", id="v2", key="dana-city", at="2025-01-01T00:00:00Z")
        entries = {e.id: e for e in t.history(key="dana-city")}
        assert set(entries) == {"v1", "v2"}
        assert entries["v1"].superseded_by == "v2"
        assert entries["v2"].status == "active"
        cmem.drop_tenant(tid)


def _ro_calls(cluster: LocalCluster, port: int) -> int:
    stats = cluster.node(port).client().info("commandstats")
    return int(stats.get("cmdstat_graph.RO_QUERY", {}).get("calls", 0))


def test_reads_go_to_replicas_when_allowed(local_cluster: LocalCluster) -> None:
    topology = local_cluster.topology()
    with Memory(url=local_cluster.seeds_url(), embedder=HashEmbedder(), read_from_replicas=True) as m:
        for primary, tid in tenants_on_distinct_shards(local_cluster, "ro").items():
            t = m.tenant(tid)
            t.add_many([{"id": f"r{i}", "text": f"replica read {i}"} for i in range(10)])  # writes: primary
            wait_replicated(local_cluster, primary)
            [replica] = topology[primary]
            before_replica, before_primary = (
                _ro_calls(local_cluster, replica),
                _ro_calls(local_cluster, primary),
            )
            for i in range(5):
                assert t.search(f"replica read {i}", k=1).ids == [f"r{i}"]
            assert _ro_calls(local_cluster, replica) - before_replica >= 5, "searches reached the replica"
            assert _ro_calls(local_cluster, primary) == before_primary, "no read-only query on the primary"
            m.drop_tenant(tid)


def test_reads_stay_on_primaries_by_default(local_cluster: LocalCluster, cmem: Memory) -> None:
    tid = "default-reads"
    primary = local_cluster.slot_owner(f"falkmem:{tid}")
    [replica] = local_cluster.topology()[primary]
    t = cmem.tenant(tid)
    t.add("stays on the primary", id="p1")
    before = _ro_calls(local_cluster, replica)
    assert t.search("stays on the primary", k=1).ids == ["p1"]
    time.sleep(0.1)
    assert _ro_calls(local_cluster, replica) == before
    cmem.drop_tenant(tid)
