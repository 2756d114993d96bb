"""RELATED_TO evidence stays bounded as a tenant grows, and erasing stays exact (migration 15).

An edge counts the memories that stated it (``n_stated``) and keeps the ids of the latest
``EVIDENCE_IDS`` of them; each memory lists the edges it stated (``stated``), which is how an
erase finds an edge whose list no longer holds its id. Real FalkorDB, real Cypher files.
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
EDGE = "priya chandran\tleads\tatlas team"  # a memory's `stated`: subject key, relation, object key


def _leads(mem: Memory, graph: str) -> dict[str, Any] | None:
    edges = [
        r[1]
        for r in graph_rows(mem, graph)
        if len(r) == 4 and r[0] == "RELATED_TO" and r[1]["relation"] == "leads"
    ]
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
    assert e["artifact_ids"] == ["a3", "a4", "a5"]  # the latest three
    assert _stated(mem, tenant.graph)["a0"] == EDGE

    r = tenant.forget("a0")  # no longer in the edge's list: found through its own list
    e = _leads(mem, tenant.graph)
    assert r.edges_updated == 1 and r.edges_removed == 0
    assert e is not None and e["n_stated"] == 5 and e["weight"] == pytest.approx(5.0)
    assert e["artifact_ids"] == ["a3", "a4", "a5"]
    tenant.forget("a4")
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 4 and e["artifact_ids"] == ["a3", "a5"]
    r = tenant.forget(session="s")  # the last four statements at once: the edge goes
    assert r.edges_removed == 1 and _leads(mem, tenant.graph) is None
    assert [x for x in graph_rows(mem, tenant.graph) if len(x) == 4 and x[0] == "RELATED_TO"] == []


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
    assert all(stated[i] == EDGE for i in ids) and stated["x"] is None
    tenant.forget("m0")
    e = _leads(mem, tenant.graph)
    assert e is not None and e["n_stated"] == 4 and e["artifact_ids"] == ["m3", "m4"]
    assert backfill.fill_evidence(ex, tenant.graph) == 0  # nothing left to convert


def test_export_import_keeps_the_counts(mem: Memory, tenant: Tenant) -> None:
    from falkmem.admin.transfer import export_tenant, import_lines

    tenant.add_many([{"id": f"m{i}", "text": FACT} for i in range(3)])
    lines = list(export_tenant(mem, tenant.id))
    copy = f"{tenant.id}-copy"
    try:
        import_lines(mem, copy, iter(lines))
        e = _leads(mem, mem.tenant(copy).graph)
        assert e is not None and e["n_stated"] == 3 and sorted(e["artifact_ids"]) == ["m0", "m1", "m2"]
        mem.tenant(copy).forget("m1")
        e = _leads(mem, mem.tenant(copy).graph)
        assert e is not None and e["n_stated"] == 2 and sorted(e["artifact_ids"]) == ["m0", "m2"]
    finally:
        mem.drop_tenant(copy)


def test_a_memory_stating_two_edges_converts_and_erases_both(mem: Memory, tenant: Tenant) -> None:
    triples = [("Priya Chandran", "leads", "Atlas team"), ("Priya Chandran", "reports to", "Marcus Webb")]
    for i in ("p", "q"):
        tenant.add("Org chart notes.", id=i, triples=triples)
    store, ex = tenant._engine.store, tenant._engine.store.executor
    ex.run(tenant.graph, test_query("unbound_evidence"), {"ids": ["p", "q"]})  # both state both edges
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 14, "now": 0.0})
    store.forget_cached(tenant.id)
    store.meta(tenant.id)  # migration 15
    lines = sorted(_stated(mem, tenant.graph)["p"].split("\n"))
    assert lines == [EDGE, "priya chandran\treports_to\tmarcus webb"]
    edges = [r[1] for r in graph_rows(mem, tenant.graph) if len(r) == 4 and r[0] == "RELATED_TO"]
    assert sorted((e["relation"], e["n_stated"]) for e in edges) == [("leads", 2), ("reports_to", 2)]
    tenant.forget("p")
    edges = [r[1] for r in graph_rows(mem, tenant.graph) if len(r) == 4 and r[0] == "RELATED_TO"]
    assert sorted((e["relation"], e["n_stated"], tuple(e["artifact_ids"])) for e in edges) == [
        ("leads", 1, ("q",)),
        ("reports_to", 1, ("q",)),
    ]
    assert tenant.forget("q").edges_removed == 2
