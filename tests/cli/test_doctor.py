"""``falkmem doctor`` on the real embedded store."""

from __future__ import annotations

import json

from falkmem import Tenant

from .conftest import Invoke


def test_doctor_reports_server_timeouts_models_and_tenants(invoke: Invoke, tenant: Tenant) -> None:
    assert invoke("add", tenant.id, "A memory so the tenant exists.").exit_code == 0  # same embedder
    r = invoke("doctor", "--tenant", tenant.id, "--json")
    assert r.exit_code == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    by_name = {c["name"]: c for c in out["checks"]}
    assert out["ok"] is True
    assert by_name["server"]["status"] == "ok" and "FalkorDB module" in by_name["server"]["detail"]
    assert by_name["timeouts"]["status"] == "ok" and "TIMEOUT_MAX=60000" in by_name["timeouts"]["detail"]
    assert by_name["embedder"]["status"] == "ok"
    assert by_name["reranker"]["status"] == "ok"
    assert by_name[f"tenant:{tenant.id}"]["status"] == "ok"
    human = invoke("doctor", "--tenant", tenant.id).stdout
    assert human.splitlines()[0].split() == ["NAME", "STATUS", "DETAIL"]


def test_doctor_fails_on_a_missing_tenant(invoke: Invoke, tenant_id: str) -> None:
    r = invoke("doctor", "--tenant", tenant_id, "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["ok"] is False and any(c["status"] == "fail" for c in out["checks"])


def test_doctor_warns_when_the_tenant_was_embedded_by_another_model(invoke: Invoke, tenant: Tenant) -> None:
    tenant.add("Written through the SDK with MiniLM.", id="d2")  # the CLI here runs the hash embedder
    r = invoke("doctor", "--tenant", tenant.id, "--json")
    assert r.exit_code == 0  # a warning is not a failure
    check = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == f"tenant:{tenant.id}")
    assert check["status"] == "warn" and "configured embedder" in check["detail"]


def test_doctor_fails_when_the_document_frequency_index_is_missing(invoke: Invoke, tenant: Tenant) -> None:
    from falkmem.storage.cypher import Query

    assert invoke("add", tenant.id, "A memory so the tenant exists.").exit_code == 0
    drop = Query(name="test/drop_term_index", mode="write", params=frozenset(), doc="", source="test",
                 text="DROP INDEX FOR (t:_Term) ON (t.stem)")  # fmt: skip
    tenant._engine.store.executor.run(tenant.graph, drop)
    r = invoke("doctor", "--tenant", tenant.id, "--json")
    assert r.exit_code == 1
    check = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == f"tenant:{tenant.id}")
    assert check["status"] == "fail" and "_Term.stem (range)" in check["detail"]
