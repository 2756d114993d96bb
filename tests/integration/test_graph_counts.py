"""Tenant statistics and health read the graph's own counters (``db.meta.stats``): they must equal
what a scan of every node and edge counts, after writes and after an erase."""

from __future__ import annotations

from collections import Counter

from falkmem import Memory, Tenant
from falkmem.admin import tenant_stats
from tests.helpers import graph_rows


def _scanned(mem: Memory, graph: str) -> tuple[Counter[str], Counter[str]]:
    nodes: Counter[str] = Counter()
    edges: Counter[str] = Counter()
    for row in graph_rows(mem, graph):
        if isinstance(row[0], list):  # all_nodes: [labels, props]
            nodes[row[0][0]] += 1
        else:  # all_edges: [type, props, src, dst]
            edges[row[0]] += 1
    return nodes, edges


def test_counts_equal_a_full_scan_after_an_erase(mem: Memory, tenant: Tenant) -> None:
    tenant.add_many(
        [
            {"id": "a1", "text": "Priya Chandran leads the Atlas team.", "session": "s1", "user": "u1"},
            {"id": "a2", "text": "Priya Chandran reports to Marcus Webb.", "session": "s1", "user": "u1"},
            {"id": "a3", "text": "The Atlas team built Project Helios.", "session": "s2", "kind": "fact"},
        ]
    )
    tenant.forget("a2")
    nodes, edges = _scanned(mem, tenant.graph)
    st = tenant_stats(mem, tenant.id)
    assert st["nodes"] == dict(nodes)
    assert st["edges"] == dict(edges)
    assert all(n > 0 for n in st["edges"].values())  # a type left without edges is not listed
    h = tenant.health()
    assert h.entities == nodes["Entity"] and h.orphan_entities == 0
