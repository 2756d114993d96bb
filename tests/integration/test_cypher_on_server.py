"""Every file in cypher/ is valid Cypher on a real FalkorDB (GRAPH.EXPLAIN), with its parameters bound."""

from __future__ import annotations

import pytest

from falkmem import Memory, Tenant
from falkmem.storage.cypher import Query, load_all

SAMPLES: dict[str, object] = {
    "vector": [0.0] * 384,
    "dimension": 384,
    "ef_runtime": 100,
    "per_node_artifacts": 10,
    "per_term": 10,
    "count_limit": 10,
    "min_share": 0.01,
}


def _sample(param: str) -> object:
    if param in SAMPLES:
        return SAMPLES[param]
    if param in (
        "k",
        "fetch_k",
        "version",
        "limit",
        "skip",
        "max_hops",
        "per_entity",
        "seed_k",
        "scan",
        "max_mentions",
        "depth",
        "walk_from",
        "walk_per_entity",
        "walk_fanout",
    ):
        return 10
    if param.endswith("s") and param not in ("status",):
        return []
    if param in (
        "now",
        "as_of",
        "cutoff",
        "decay",
        "weight",
        "threshold",
        "min_score",
        "head_weight",
        "hop_weight",
        "tail_weight",
        "named_weight",
        "max_score",
        "walk_weight",
        "evidence_weight",
        "walk_floor",
    ):
        return 1.0
    return "x"


def _header(params: dict[str, object]) -> str:
    from falkordb.graph import Graph

    return Graph._build_params_header(None, params) if params else ""  # type: ignore[arg-type]


@pytest.mark.parametrize("q", list(load_all().values()), ids=lambda q: q.name)
def test_explain(mem: Memory, tenant: Tenant, q: Query) -> None:
    tenant.add("seed memory about Project Helios", id="seed")
    params = {p: _sample(p) for p in q.params}
    plan = mem._engine.store.db.connection.execute_command(
        "GRAPH.EXPLAIN", tenant.graph, _header(params) + q.text
    )
    assert plan, q.name
