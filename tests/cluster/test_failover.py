"""Failover: kill the primary that owns a tenant; its replica takes over and the SDK recovers.

Runs after ``test_cluster.py`` (it leaves one shard without a replica).
"""

from __future__ import annotations

import time

import pytest

from falkmem import Memory
from falkmem.testing import HashEmbedder

from .local_cluster import LocalCluster, wait_replicated

pytestmark = pytest.mark.cluster


def test_primary_killed_replica_promoted_sdk_recovers(
    local_cluster: LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = "failover"
    primary = local_cluster.slot_owner(f"falkmem:{tid}")
    [replica] = local_cluster.topology()[primary]
    # Enough retry budget to outlast failure detection (cluster-node-timeout 2 s) + election:
    # the waits are random up to the cap, so 20 attempts capped at 1 s gave about 8 s, and an
    # election that took longer failed a CI run; capped at 2 s they give about 16 s (recovery
    # is measured at 4-6 s here).
    with Memory(
        url=local_cluster.seeds_url(), embedder=HashEmbedder(), retry_attempts=20, retry_max_wait_s=2.0
    ) as mem:
        t = mem.tenant(tid)
        acked = t.add_many([{"id": f"f{i}", "text": f"acknowledged fact {i}"} for i in range(50)]).added
        assert len(acked) == 50
        # Replication is asynchronous: a write is safe from failover once the replica has it
        # (what WAIT 1 checks). Wait for that, as an application needing it would.
        wait_replicated(local_cluster, primary)

        killed_at = time.monotonic()
        local_cluster.kill(primary)
        t.add("written through the failover", id="after")  # retried until the replica is promoted
        recovered_s = time.monotonic() - killed_at
        assert t.search("written through the failover", k=1).ids == ["after"]
        with capsys.disabled():
            print(f"\nfailover: primary {primary} killed → first successful SDK write in {recovered_s:.2f} s")

        assert local_cluster.slot_owner(f"falkmem:{tid}") == replica, "the replica was promoted"
        assert t.count() == 51, "no acknowledged memory lost"
        assert {t.get(i).id for i in acked} == set(acked)
        assert t.search("acknowledged fact 17", k=1).ids == ["f17"]  # the vector index came along
        assert tid in mem.tenants()  # the fan-out reaches the new primary
        assert recovered_s < 30
        mem.drop_tenant(tid)
