"""``falkmem tenants`` lifecycle commands on a real embedded store: output shapes and exit codes."""

from __future__ import annotations

import json

from falkmem import Memory
from falkmem.storage.migrations import SCHEMA_VERSION

from .conftest import Invoke


def test_create_list_show_stats_migrate_drop(invoke: Invoke, mem: Memory, tenant_id: str) -> None:
    mem.drop_tenant(tenant_id)
    try:
        r = invoke("tenants", "create", tenant_id, "--json")
        assert r.exit_code == 0, r.stderr
        created = json.loads(r.stdout)
        assert created["created"] is True and created["schema_version"] == SCHEMA_VERSION
        assert invoke("tenants", "create", tenant_id).exit_code == 2  # TenantExists

        mem.tenant(tenant_id).add_many([
            {"id": "a1", "text": "Priya leads the Atlas team.", "session": "s1", "user": "u1",
             "entities": ["Atlas team"], "triples": [("Atlas team", "built", "Project Helios")]},
            {"id": "a2", "text": "Pasta on Fridays.", "kind": "note"},
        ])  # fmt: skip

        listed = json.loads(invoke("tenants", "list", "--json").stdout)
        assert isinstance(listed, list)
        mine = next(t for t in listed if t["tenant"] == tenant_id)
        assert mine["artifacts"] == 2 and mine["dimension"] == 384 and mine["last_write"]
        nl = [json.loads(line) for line in invoke("tenants", "list", "--nl").stdout.splitlines()]
        assert any(t["tenant"] == tenant_id for t in nl)
        human = invoke("tenants", "list").stdout
        assert human.splitlines()[0].split()[:3] == ["TENANT", "ARTIFACTS", "SCHEMA_VERSION"]
        assert tenant_id in human

        shown = json.loads(invoke("tenants", "show", tenant_id, "--json").stdout)
        assert shown["graph"] == f"falkmem:{tenant_id}" and shown["pending_migrations"] == []
        assert tenant_id in invoke("tenants", "show", tenant_id).stdout

        st = json.loads(invoke("tenants", "stats", tenant_id, "--json").stdout)
        assert st["artifacts"]["total"] == 2 and st["artifacts"]["by_kind"] == {"episode": 1, "note": 1}
        assert st["artifacts"]["by_status"] == {"active": 2} and st["artifacts"]["vectors"] == 2
        assert st["entities"]["total"] >= 2
        assert (
            st["edges"]["RELATED_TO"] >= 1
            and st["edges"]["CONTAINS"] == 1
            and st["edges"]["HAS_SESSION"] == 1
        )
        assert st["schema_version"] == st["schema_current"] == SCHEMA_VERSION
        kinds = {(i["label"], i["property"], i["type"]) for i in st["indexes"]}
        assert {("Artifact", "embedding", "vector"), ("Artifact", "text", "fulltext"),
                ("Entity", "key", "range")} <= kinds  # fmt: skip
        assert all(i["status"] == "OPERATIONAL" for i in st["indexes"])
        m = st["memory"]
        assert m["hnsw_estimate_mb"] > 0 and "estimate" in m["method"]
        assert m["total_estimate_mb"] >= m["hnsw_estimate_mb"]
        human = invoke("tenants", "stats", tenant_id).stdout
        assert "HNSW index (estimate)" in human and "OPERATIONAL" in human

        plan = json.loads(invoke("tenants", "migrate", tenant_id, "--plan", "--json").stdout)
        assert plan["migrations"] == [] and plan["from_version"] == SCHEMA_VERSION
        assert "nothing to do" in invoke("tenants", "migrate", tenant_id).stdout

        assert invoke("tenants", "drop", tenant_id).exit_code == 2  # no --yes, not interactive
        assert json.loads(invoke("tenants", "drop", tenant_id, "--yes", "--json").stdout)["dropped"] is True
        assert not mem.has_tenant(tenant_id)
    finally:
        mem.drop_tenant(tenant_id)


def test_migrate_brings_an_old_schema_up(invoke: Invoke, mem: Memory, tenant_id: str) -> None:
    mem.drop_tenant(tenant_id)
    try:
        mem.create_tenant(tenant_id)
        store = mem._engine.store
        from falkmem.storage.cypher import query

        store.executor.run(
            store.graph(tenant_id), query("admin/set_schema_version"), {"version": 8, "now": 0.0}
        )
        store.forget_cached(tenant_id)
        plan = json.loads(invoke("tenants", "migrate", tenant_id, "--plan", "--json").stdout)
        assert [m["version"] for m in plan["migrations"]] == list(range(9, SCHEMA_VERSION + 1)) and plan[
            "to_version"
        ] == 8
        # the constraint exists already: the migration tolerates that and records the version
        r = invoke("tenants", "migrate", tenant_id, "--json")
        assert r.exit_code == 0, r.stderr
        out = json.loads(r.stdout)
        assert (out["from_version"], out["to_version"]) == (8, SCHEMA_VERSION)
        assert "applied 1 migration" not in invoke("tenants", "migrate", tenant_id).stdout
    finally:
        mem.drop_tenant(tenant_id)


def test_missing_and_invalid_tenants_exit_2(invoke: Invoke, tenant_id: str) -> None:
    for args in (("tenants", "show", tenant_id), ("tenants", "stats", tenant_id), ("search", tenant_id, "q"),
                 ("tenants", "export", tenant_id), ("tenants", "show", "Bad Id"), ("add", "../x", "text")):  # fmt: skip
        r = invoke(*args)
        assert r.exit_code == 2, (args, r.stdout, r.stderr)
        assert r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1
        assert r.stdout == ""


def test_storage_failure_exits_1() -> None:
    from click.testing import CliRunner

    from falkmem.cli.app import cli

    env = {"FALKMEM_RETRY_ATTEMPTS": "1", "FALKMEM_CONNECT_TIMEOUT_S": "1"}
    r = CliRunner().invoke(cli, ["--url", "redis://127.0.0.1:1", "tenants", "list"], env=env)
    assert r.exit_code == 1 and r.stderr.startswith("Error: ")
    r = CliRunner().invoke(cli, ["--url", "redis://127.0.0.1:1", "--debug", "tenants", "list"], env=env)
    assert r.exit_code == 1 and "Traceback" in r.stderr
