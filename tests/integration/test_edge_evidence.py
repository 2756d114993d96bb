"""RELATED_TO evidence stays bounded as a tenant grows, and erasing stays exact (migration 15).

An edge counts the memories that stated it (``n_stated``) and keeps the ids of the latest
``EVIDENCE_IDS`` of them; a memory whose id is pushed out of a full list keeps the edge on itself
(``stated``), which is how an erase still finds it. Real FalkorDB, real Cypher files.
"""

from __future__ import annotations

from typing import Any

import pytest

from falkmem import Memory, Tenant
from falkmem.ingest import writer
from falkmem.storage import backfill
from falkmem.storage.cypher import query
from tests.helpers import graph_rows, test_query

FACT = "Priya Chandran leads the Atlas team."
EDGE = "priya chandran\tleads\tatlas team"  # a line of a memory's `stated`: subject key, relation, object key


def _edges(mem: Memory, graph: str) -> list[dict[str, Any]]:
    return [r[1] for r in graph_rows(mem, graph) if len(r) == 4 and r[0] == "RELATED_TO"]


def _leads(mem: Memory, graph: str) -> dict[str, Any] | None:
    edges = [e for e in _edges(mem, graph) if e["relation"] == "leads"]
    assert len(edges) <= 1
    return edges[0] if edges else None


def _stated(mem: Memory, graph: str) -> dict[str, Any]:
    return {
        r[1]["id"]: r[1].get("stated") for r in graph_rows(mem, graph) if len(r) == 2 and r[0] == ["Artifact"]
    }


def test_evidence_is_bounded_and_an_erase_still_counts(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "EVIDENCE_IDS", 3)
    # a0 and a4 are erased one by one, the others in one erase (session s)
    tenant.add_many(
        [{"id": f"a{i}", "text": FACT, "session": "s" if i else None} for i in range(3)]
    )  # one query
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 3 and sorted(e["artifact_ids"]) == ["a0", "a1", "a2"]
    for i in range(3, 6):
        tenant.add(FACT, id=f"a{i}", session="s" if i != 4 else None)
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 6 and e["weight"] == pytest.approx(6.0)
    assert e["artifact_ids"][-3:] == ["a3", "a4", "a5"] and len(e["artifact_ids"]) == 3  # the latest three
    stated = _stated(mem, tenant.graph)
    assert {i for i, s in stated.items() if s == EDGE} == {"a0", "a1", "a2"}  # pushed out: kept on themselves
    assert all(stated[i] is None for i in ("a3", "a4", "a5"))

    r = tenant.forget("a0")  # no longer in the edge's list: found through its own line
    e = _leads(mem, tenant.graph)
    assert r.edges_updated == 1 and r.edges_removed == 0
    assert e is not None and e["n_stated"] == 5 and e["weight"] == pytest.approx(5.0)
    assert e["artifact_ids"] == ["a3", "a4", "a5"]
    tenant.forget("a4")  # in the list
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 4 and e["artifact_ids"] == ["a3", "a5"]
    r = tenant.forget(session="s")  # the last four statements at once, two of each kind: the edge goes
    assert r.edges_removed == 1 and _leads(mem, tenant.graph) is None
    assert _edges(mem, tenant.graph) == []


def test_migration_15_counts_and_bounds_older_edges(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [f"m{i}" for i in range(5)]
    tenant.add_many([{"id": i, "text": FACT} for i in ids] + [{"id": "x", "text": "Lunch was late today."}])
    store, ex = tenant._engine.store, tenant._engine.store.executor
    ex.run(tenant.graph, test_query("unbound_evidence"), {"ids": ids})
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 14, "now": 0.0})
    e = _leads(mem, tenant.graph)
    assert (
        e is not None and "n_stated" not in e and all(v is None for v in _stated(mem, tenant.graph).values())
    )
    monkeypatch.setattr(backfill, "EVIDENCE_IDS", 2)
    store.forget_cached(tenant.id)
    assert store.meta(tenant.id).schema_version == 15  # migrated on open
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 5 and e["artifact_ids"] == ["m3", "m4"]
    stated = _stated(mem, tenant.graph)
    assert {i for i, s in stated.items() if s is not None} == {"m0", "m1", "m2"} and stated["m0"] == EDGE
    tenant.forget("m0")
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 4 and e["artifact_ids"] == ["m3", "m4"]
    assert backfill.fill_evidence(ex, tenant.graph) == 0  # nothing left to convert


def test_a_memory_pushed_out_of_two_lists_converts_and_erases_both(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    triples = [("Priya Chandran", "leads", "Atlas team"), ("Priya Chandran", "reports to", "Marcus Webb")]
    for i in ("p", "q"):
        tenant.add("Org chart notes.", id=i, triples=triples)
    store, ex = tenant._engine.store, tenant._engine.store.executor
    ex.run(tenant.graph, test_query("unbound_evidence"), {"ids": ["p", "q"]})  # both state both edges
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 14, "now": 0.0})
    monkeypatch.setattr(backfill, "EVIDENCE_IDS", 1)
    store.forget_cached(tenant.id)
    store.meta(tenant.id)  # migration 15: p leaves both lists
    assert sorted(_stated(mem, tenant.graph)["p"].split("\n")) == [
        EDGE,
        "priya chandran\treports_to\tmarcus webb",
    ]
    assert sorted((e["relation"], e["n_stated"], tuple(e["artifact_ids"])) for e in _edges(mem, tenant.graph)) == [
        ("leads", 2, ("q",)), ("reports_to", 2, ("q",))
    ]  # fmt: skip
    tenant.forget("p")
    assert sorted((e["relation"], e["n_stated"], tuple(e["artifact_ids"])) for e in _edges(mem, tenant.graph)) == [
        ("leads", 1, ("q",)), ("reports_to", 1, ("q",))
    ]  # fmt: skip
    assert tenant.forget("q").edges_removed == 2


def test_export_import_keeps_the_counts(mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
    from falkmem.admin.transfer import export_tenant, import_lines

    monkeypatch.setattr(writer, "EVIDENCE_IDS", 2)
    tenant.add_many([{"id": f"m{i}", "text": FACT} for i in range(3)])
    lines = list(export_tenant(mem, tenant.id))
    copy = f"{tenant.id}-copy"
    try:
        import_lines(mem, copy, iter(lines))
        e = _leads(mem, mem.tenant(copy).graph)
        assert e is not None and e["n_stated"] == 3 and len(e["artifact_ids"]) == 2
        (out,) = {"m0", "m1", "m2"} - set(e["artifact_ids"])
        mem.tenant(copy).forget(out)  # found through its own line, carried by the file
        e = _leads(mem, mem.tenant(copy).graph)
        assert e is not None and e["n_stated"] == 2 and len(e["artifact_ids"]) == 2
    finally:
        mem.drop_tenant(copy)
