"""Turn order: the memories of a session are linked (prev)-[:NEXT]->(next) in the order they
were written, across batches and calls; migration 12 links tenants written before; export and
import carry the links, and an older export is linked on import."""

from __future__ import annotations

import itertools

from falkmem import Memory, Tenant
from falkmem.storage.cypher import query
from tests.helpers import test_query


def _order(tenant: Tenant) -> tuple[set[tuple[str, str]], dict[str, str]]:
    ex = tenant._engine.store.executor
    [row] = ex.run(tenant.graph, test_query("next_edges"))
    edges = {(a, b) for a, b in row["edges"] if a is not None}
    return edges, {s: last for s, last in row["lasts"] if s is not None}


def _chain(*ids: str) -> set[tuple[str, str]]:
    return set(itertools.pairwise(ids))


def test_turns_are_linked_in_the_order_written(tenant: Tenant) -> None:
    tenant.add_many([{"id": f"a{i}", "text": f"turn {i} about the garden", "session": "s1" if i % 3 else "s2"}
                     for i in range(7)] + [{"id": "loose", "text": "a note without a session"}])  # fmt: skip
    tenant.add_many(
        [{"id": f"b{i}", "text": f"later turn {i}", "session": "s1"} for i in range(2)], batch_size=1
    )
    tenant.add("one more turn", id="c0", session="s2")
    edges, last = _order(tenant)
    assert edges == _chain("a1", "a2", "a4", "a5", "b0", "b1") | _chain("a0", "a3", "a6", "c0")
    assert last == {"s1": "b1", "s2": "c0"}


def test_a_restated_fact_leaves_no_gap(tenant: Tenant) -> None:
    tenant.add("The budget is 40k.", id="f1", key="budget", session="s", kind="fact")
    tenant.add_many([{"id": "f2", "text": "The budget is 40k.", "key": "budget", "session": "s", "kind": "fact"},
                     {"id": "t1", "text": "Thanks, noted.", "session": "s"}])  # fmt: skip
    edges, last = _order(tenant)
    assert edges == _chain("f1", "t1") and last == {"s": "t1"}  # f2 restated f1: nothing created


def test_migration_12_links_older_tenants(tenant: Tenant) -> None:
    tenant.add_many([{"id": f"m{i}", "text": f"turn {i}", "session": "s", "at": f"2026-01-0{9 - i}T10:00:00Z"}
                     for i in range(4)] + [{"id": "x", "text": "elsewhere", "session": "t"}])  # fmt: skip
    store, ex = tenant._engine.store, tenant._engine.store.executor
    ex.run(tenant.graph, test_query("drop_turn_order"))
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 11, "now": 0.0})
    assert _order(tenant) == (set(), {"s": None, "t": None})
    store.forget_cached(tenant.id)
    store.meta(tenant.id)  # migrated on open: the session's memories in time order
    assert _order(tenant) == (_chain("m3", "m2", "m1", "m0"), {"s": "m0", "t": "x"})
    tenant.add("newest", id="m4", session="s")
    assert ("m0", "m4") in _order(tenant)[0]


def test_export_import_keeps_turn_order_and_links_an_older_file(tenant: Tenant, mem: Memory) -> None:
    from falkmem.admin.transfer import export_tenant, import_lines

    tenant.add_many([{"id": f"m{i}", "text": f"turn {i}", "session": "s"} for i in range(3)])
    lines = list(export_tenant(mem, tenant.id))
    assert sum(1 for x in lines if x.get("rel") == "NEXT") == 2
    copy, old = f"{tenant.id}-copy", f"{tenant.id}-old"
    try:
        import_lines(mem, copy, iter(lines))
        assert _order(mem.tenant(copy)) == _order(tenant)
        # what an export from before schema 12 holds: no NEXT lines, sessions without `last`
        older = [x for x in lines if x.get("rel") != "NEXT"]
        for x in older:
            if x.get("type") == "session":
                x["props"].pop("last", None)
            if x.get("type") == "end":
                x["counts"].pop("NEXT", None)
        import_lines(mem, old, iter(older))
        assert _order(mem.tenant(old)) == (_chain("m0", "m1", "m2"), {"s": "m2"})
    finally:
        mem.drop_tenant(copy)
        mem.drop_tenant(old)


def test_erasing_turns_bridges_the_chain(tenant: Tenant) -> None:
    tenant.add_many([{"id": f"a{i}", "text": f"turn {i}", "session": "s"} for i in range(7)])
    tenant.delete_many(["a1", "a2"])  # a run inside the chain
    tenant.delete_many(["a6"])  # the session's last memory
    tenant.delete_many(["a0"])  # its first
    edges, last = _order(tenant)
    assert edges == _chain("a3", "a4", "a5") and last == {"s": "a5"}
    tenant.add("a new turn", id="a7", session="s")
    assert _order(tenant) == (_chain("a3", "a4", "a5", "a7"), {"s": "a7"})
    tenant.delete_many(["a3", "a4", "a5", "a7"])  # everything: the session goes
    assert _order(tenant) == (set(), {})
