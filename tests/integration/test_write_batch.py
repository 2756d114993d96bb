"""The batched write (issue 52): ``ingest/create_batch`` writes what the per-row statement
writes, node for node and in creation order; edge evidence is bounded per write and complete;
the pipelined ``add_many`` extracts a batch with the entities of the batch before it."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from falkmem import Memory, Tenant
from falkmem.ingest.aggregate import (
    EVIDENCE_KEEP,
    EVIDENCE_SEP,
    EVIDENCE_SPILL_AT,
    batch_params,
    chains,
    evidence_ids,
)
from falkmem.ingest.validate import prepare
from falkmem.ingest.writer import _embed_stage, _plan_stage
from falkmem.storage.cypher import query
from falkmem.testing import HashEmbedder
from tests.helpers import test_query, unit_vector


@pytest.fixture(scope="module")
def hmem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """A store of its own with the fast embedder (vectors are supplied anyway)."""
    m = Memory(tmp_path_factory.mktemp("write-batch"), embedder=HashEmbedder())
    yield m
    m.close()


def _fresh(mem: Memory, name: str) -> Tenant:
    mem.drop_tenant(name)
    mem._engine.ensure_tenant(name)
    return mem.tenant(name)


TEXTS = [
    "Priya Chandran leads the Atlas team. The Atlas team built Project Helios.",
    "ATLAS TEAM shipped Helios; Priya Chandran reports to Marcus Webb.",
    "Marcus Webb met Priya Chandran in Lisbon. Booked flight TP 1351 to Lisbon.",
    "Flight TP 1351 is delayed. Marcus Webb manages the Atlas team.",
    "Dana Ortiz joined the Atlas Team from Orion Labs.",
    "Nothing to see here, just a plain note about lunch.",
]


def _records(n: int, start: int = 0) -> list[dict[str, Any]]:
    out = []
    for i in range(start, start + n):
        rec: dict[str, Any] = {
            "id": f"m{i:04d}", "text": TEXTS[i % len(TEXTS)] + f" Note {i}.",
            "kind": "document" if i % 3 == 0 else "episode",  # a document's first sentence is its head
            "embedding": unit_vector(i), "session": f"s{i % 3}" if i % 5 else None,
            "speaker": "dana" if i % 2 else None, "user": "u1" if i % 4 == 1 else None,
            "agent": "bot" if i % 7 == 3 else None,
            # caller-given graph facts: a hub edge stated by every memory, an endpoint not
            # named as an entity, the same triple twice in one memory, a surface form that varies
            "entities": [{"name": "Orion Labs" if i % 2 else "ORION LABS", "type": "org"}],
            "triples": [("Orion Labs", "part of", "Umbrella Group"), (f"Person {i % 9}", "works with", "Orion Labs"),
                        (f"Person {i % 9}", "works with", "Orion Labs")],
        }  # fmt: skip
        out.append(rec)
    return out


def _rows(mem: Memory, t: Tenant, records: list[dict[str, Any]], now: float) -> list[dict[str, Any]]:
    """The rows the write path builds for ``records`` (rule extraction against the tenant's
    known entities, which are then told the rows' entities, as add_many does)."""
    eng = mem._engine
    prepared = [prepare(r, eng.settings, now=now) for r in records]
    emb = _embed_stage(eng.store.executor, t.graph, prepared, embedder=eng.embedder, dimension=384)
    planned = _plan_stage(
        emb, extractor=eng.extractor, known=eng.known(t.id), attribution=None, key_policy=None
    )
    eng.note_entities(t.id, planned.keys)
    return list(planned.rows)


def _graph(t: Tenant) -> tuple[list[Any], list[Any]]:
    """Nodes and edges by internal id (the tenants' own creation times left out)."""
    ex = t._engine.store.executor
    nodes = ex.run(t.graph, test_query("nodes_by_id"))
    for n in nodes:
        if "_Meta" in n["labels"]:
            n["props"] = {k: v for k, v in n["props"].items() if k not in ("created_at", "migrated_at")}
    return nodes, ex.run(t.graph, test_query("edges_by_id"))


def _content(t: Tenant) -> tuple[dict[Any, Any], Counter[Any]]:
    """The graph as content: nodes by label and key, edges by type and endpoints' keys, with
    every property; the lists whose order the per-row statement leaves to the engine (aliases,
    an edge's stating ids) as sorted lists, weights rounded."""
    nodes, edges = _graph(t)

    def name(n: dict[str, Any]) -> str:
        p = n["props"]
        return str(p.get("key") or p.get("id") or p.get("stem"))

    by_id = {n["id"]: (tuple(n["labels"]), name(n)) for n in nodes}
    out_nodes = {}
    for n in nodes:
        props = dict(n["props"])
        if "aliases" in props:
            props["aliases"] = sorted(props["aliases"])
        out_nodes[by_id[n["id"]]] = props
    out_edges: Counter[Any] = Counter()
    for e in edges:
        props = dict(e["props"])
        if e["type"] == "RELATED_TO":
            ids = evidence_ids(props)
            props.pop("evidence_old", None)
            props["evidence"] = sorted(ids)
            props["weight"] = round(props["weight"], 9)
        out_edges[(e["type"], by_id[e["src"]], by_id[e["dst"]], json.dumps(props, sort_keys=True))] += 1
    return out_nodes, out_edges


def test_the_batch_statement_writes_what_the_per_row_statement_writes(hmem: Memory) -> None:
    """The same rows through ``create_artifacts`` (one MERGE per mention) and ``create_batch``
    (aggregated): the same nodes and edges with the same properties, over batches that restate
    entities and edges, add aliases, continue sessions and push a hub edge's evidence past the
    spill point. (The per-row statement's creation order, and the order in which FalkorDB runs
    its FOREACH bodies over a batch's rows, are the engine's: there the batch keeps row order.)"""
    per_row, batched = _fresh(hmem, "eq-per-row"), _fresh(hmem, "eq-batched")
    ex = hmem._engine.store.executor
    now = time.time()
    sizes = [7, 64, 64, 64, 30]
    for b, size in enumerate(sizes):
        rows = _rows(hmem, per_row, _records(size, sum(sizes[:b])), now)
        assert all(r["key"] is None for r in rows)
        ex.run(per_row.graph, query("ingest/create_artifacts"),
               {"rows": rows, "now": now, "chains": chains(rows), "spill_at": EVIDENCE_SPILL_AT, "keep": EVIDENCE_KEEP, "sep": EVIDENCE_SEP})  # fmt: skip
        ex.run(batched.graph, query("ingest/create_batch"), {**batch_params(rows), "now": now})
    nodes_a, edges_a = _content(per_row)
    nodes_b, edges_b = _content(batched)
    assert len(nodes_a) > 229 and sum(edges_a.values()) > 1000
    assert nodes_b == nodes_a
    assert edges_b == edges_a
    raw_nodes, raw_edges = _graph(batched)
    assert len(raw_nodes) == len(_graph(per_row)[0])
    spilled = [e for e in raw_edges if e["type"] == "RELATED_TO" and e["props"].get("evidence_old")]
    assert spilled, "a hub edge should have spilled"
    # the batched statement keeps the stating memories in the order written, oldest first
    hub = spilled[0]["props"]
    assert evidence_ids(hub) == sorted(evidence_ids(hub))
    assert len(hub["evidence"].split(EVIDENCE_SEP)) <= EVIDENCE_SPILL_AT
    heads = [e["props"].get("head") for e in raw_edges if e["type"] == "REFERENCES"]
    assert True in heads and False not in heads  # a link not in the head stores no property


def test_evidence_is_bounded_per_write_and_every_id_is_kept_in_order(hmem: Memory) -> None:
    t = _fresh(hmem, "evidence")
    recs = [{"id": f"e{i:03d}", "text": f"Statement {i}.", "embedding": unit_vector(i),
             "triples": [("Hub Corp", "owns", "Spoke Inc")]} for i in range(300)]  # fmt: skip
    t.add_many(recs, batch_size=16)
    ex = hmem._engine.store.executor
    [edge] = [e for e in ex.run(t.graph, test_query("edges_by_id")) if e["type"] == "RELATED_TO"]
    recent = edge["props"]["evidence"].split(EVIDENCE_SEP)
    assert evidence_ids(edge["props"]) == [r["id"] for r in recs]
    assert EVIDENCE_KEEP <= len(recent) <= EVIDENCE_SPILL_AT
    assert edge["props"]["weight"] == 300.0  # 1.0 a stated relation, summed in order
    weight = edge["props"]["weight"]

    # erase memories from both lists: the rest stay in order, the weight shrinks in proportion
    gone = ["e000", "e100", "e299", "e298"]
    result = t.delete_many(gone)
    assert result.artifacts == 4 and result.edges_updated == 1
    [edge] = [e for e in ex.run(t.graph, test_query("edges_by_id")) if e["type"] == "RELATED_TO"]
    kept = [r["id"] for r in recs if r["id"] not in gone]
    assert evidence_ids(edge["props"]) == kept
    assert edge["props"]["weight"] == pytest.approx(weight * 296 / 300)
    # the next statement appends after the survivors
    t.add_many([{"id": "e300", "text": "Statement 300.", "embedding": unit_vector(300),
                 "triples": [("Hub Corp", "owns", "Spoke Inc")]}])  # fmt: skip
    [edge] = [e for e in ex.run(t.graph, test_query("edges_by_id")) if e["type"] == "RELATED_TO"]
    assert evidence_ids(edge["props"]) == [*kept, "e300"]
    # erasing every stating memory deletes the edge
    assert t.delete_many([*kept, "e300"]).edges_removed == 1
    assert not [e for e in ex.run(t.graph, test_query("edges_by_id")) if e["type"] == "RELATED_TO"]


def test_a_keyed_batch_spills_evidence_too(hmem: Memory) -> None:
    """Facts with keys go through the per-row statement, which bounds the lists the same way."""
    t = _fresh(hmem, "keyed-evidence")
    recs = [{"id": f"k{i:03d}", "text": f"Fact {i}: Hub Corp owns Spoke Inc.", "kind": "fact", "key": f"fact {i}",
             "embedding": unit_vector(i), "triples": [("Hub Corp", "owns", "Spoke Inc")]} for i in range(140)]  # fmt: skip
    t.add_many(recs, batch_size=70)
    ex = hmem._engine.store.executor
    [edge] = [e for e in ex.run(t.graph, test_query("edges_by_id")) if e["type"] == "RELATED_TO"]
    # (FalkorDB runs the per-row statement's FOREACH over a batch's rows in an order of its own)
    assert sorted(evidence_ids(edge["props"])) == [r["id"] for r in recs]
    assert len(edge["props"]["evidence"].split(EVIDENCE_SEP)) == EVIDENCE_KEEP


def test_the_next_batch_is_extracted_with_the_entities_of_the_batch_before(hmem: Memory) -> None:
    """Pipelined add_many: batch 2 is extracted while batch 1 is written, and still finds the
    entity batch 1 named (a lower-case mention only the known-entity index links)."""
    t = _fresh(hmem, "pipeline-known")
    t.add_many([{"id": "a", "text": "Met the people from Zorblax Quintet today.", "embedding": unit_vector(1),
                 "entities": ["Zorblax Quintet"]},
                {"id": "b", "text": "the zorblax quintet called back about the contract.", "embedding": unit_vector(2)}],
               batch_size=1)  # fmt: skip
    ex = hmem._engine.store.executor
    edges = ex.run(t.graph, test_query("edges_by_id"))
    nodes = {n["id"]: n for n in ex.run(t.graph, test_query("nodes_by_id"))}
    refs = {
        (nodes[e["src"]]["props"]["id"], nodes[e["dst"]]["props"]["key"])
        for e in edges
        if e["type"] == "REFERENCES"
    }
    assert ("b", "zorblax quintet") in refs


def test_a_failed_write_leaves_whole_batches_and_reloads_the_known_entities(
    hmem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server refuses the third batch's write while the fourth is being extracted: the first
    two are written and acknowledged, nothing after, and the in-process known entities (told the
    third and fourth batches' entities before their writes) are reloaded from the graph."""
    from falkmem import QueryFailed
    from falkmem.storage.executor import Executor

    t = _fresh(hmem, "pipeline-failure")
    real = Executor.run
    calls = {"n": 0}

    def flaky(self: Executor, graph: str, q: Any, params: Any = None, **kw: Any) -> Any:
        if q.name == "ingest/create_batch":
            calls["n"] += 1
            if calls["n"] == 3:
                raise QueryFailed("ingest/create_batch: refused for the test")
        return real(self, graph, q, params, **kw)

    monkeypatch.setattr(Executor, "run", flaky)
    recs = [{"id": f"p{i}", "text": f"Turn {i} with Entity Number{i}.", "embedding": unit_vector(i),
             "entities": [f"Entity Number{i}"]} for i in range(8)]  # fmt: skip
    acked: list[int] = []
    with pytest.raises(QueryFailed):
        t.add_many(recs, batch_size=2, on_progress=lambda done, total: acked.append(done))
    monkeypatch.undo()
    assert acked == [2, 4]
    assert {h.id for h in t.get_many([r["id"] for r in recs])} == {"p0", "p1", "p2", "p3"}
    known = hmem._engine.known(t.id, fresh=False)
    assert "entity number3" in known and "entity number4" not in known and "entity number6" not in known


def test_stats_after_batched_writes_match_a_recount(hmem: Memory, tmp_path: Path) -> None:
    """Document frequencies, token and document counts, and entity mention counts written per
    batch equal what a recount over the stored memories gives."""
    from falkmem.keyword.stem import parse_bag
    from tests.reliability.store_checks import stats_mismatches

    t = _fresh(hmem, "stats")
    t.add_many(_records(150), batch_size=32)
    assert stats_mismatches(hmem, t.graph) == []
    rows = hmem._engine.store.executor.run(t.graph, test_query("nodes_by_id"))
    bags = [parse_bag(n["props"]["stems"]) for n in rows if "Artifact" in n["labels"]]
    assert len(bags) == 150 and all(bags)


def _evidence(t: Tenant) -> dict[tuple[int, int, str], dict[str, Any]]:
    out = {}
    for e in t._engine.store.executor.run(t.graph, test_query("edges_by_id")):
        if e["type"] == "RELATED_TO":
            out[(e["src"], e["dst"], e["props"]["relation"])] = dict(e["props"])
    return out


def test_migration_16_packs_the_lists_of_older_tenants(hmem: Memory) -> None:
    """A tenant from before schema 16 (each edge's stating memories as a list) gets the
    evidence strings on open: the same ids in the same order, spilled past the bound."""
    t = _fresh(hmem, "migrate-16")
    t.add_many(_records(200), batch_size=50)
    packed = _evidence(t)
    assert any(p.get("evidence_old") for p in packed.values())
    store, ex = hmem._engine.store, hmem._engine.store.executor
    [row] = ex.run(t.graph, test_query("unpack_evidence"), {"sep": EVIDENCE_SEP})
    assert row["unpacked"] == len(packed)
    ex.run(t.graph, query("admin/set_schema_version"), {"version": 15, "now": 0.0})
    assert all("evidence" not in p for p in _evidence(t).values())
    store.forget_cached(t.id)
    assert store.meta(t.id).schema_version >= 16  # migrated on open
    migrated = _evidence(t)
    assert migrated.keys() == packed.keys()
    for k, p in packed.items():  # the same ids in order (where the strings split may differ)
        m = migrated[k]
        assert evidence_ids(m) == evidence_ids(p) and "artifact_ids" not in m
        assert len(m["evidence"].split(EVIDENCE_SEP)) <= EVIDENCE_SPILL_AT
        assert {x: v for x, v in m.items() if not x.startswith("evidence")} == {
            x: v for x, v in p.items() if not x.startswith("evidence")
        }
    assert t.search("Orion Labs part of Umbrella Group", k=3).ids  # the walk reads the strings


def test_export_writes_lists_and_import_packs_them(hmem: Memory) -> None:
    from falkmem.admin.transfer import export_tenant, import_lines

    t = _fresh(hmem, "transfer-16")
    t.add_many(_records(150), batch_size=50)
    lines = list(export_tenant(hmem, t.id))
    related = [x for x in lines if x.get("rel") == "RELATED_TO"]
    assert related and all("artifact_ids" in x["props"] and "evidence" not in x["props"] for x in related)
    assert max(len(x["props"]["artifact_ids"]) for x in related) == 150  # every statement, in one list
    copy = "transfer-16-copy"
    hmem.drop_tenant(copy)
    try:
        import_lines(hmem, copy, iter(lines))
        a = {(p["relation"], p["created_at"], p["weight"]): p for p in _evidence(t).values()}
        b = {(p["relation"], p["created_at"], p["weight"]): p for p in _evidence(hmem.tenant(copy)).values()}
        assert sorted(map(evidence_ids, a.values())) == sorted(map(evidence_ids, b.values()))
        assert all("artifact_ids" not in p for p in b.values())
    finally:
        hmem.drop_tenant(copy)
