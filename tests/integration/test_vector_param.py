"""A vector formatted once (storage/params.py) reaches the server as the floats it came from.

falkordb-py writes a parameter of a type it does not know with ``str()``; ``VectorParam``
relies on that. These tests go through the real driver and server, so a driver that stopped
doing it (or quoted the value) fails here.
"""

from __future__ import annotations

import math
import random

import numpy as np

from falkmem import Memory, Tenant
from falkmem.retrieval.pipeline import retrieve
from falkmem.storage.params import VectorParam, vector_param


def _vec(seed: int, n: int = 384) -> list[float]:
    rng = random.Random(seed)
    v = np.array([rng.gauss(0, 1) for _ in range(n)], dtype=np.float32)
    v /= np.linalg.norm(v)
    return [float(x) for x in v]  # float32 values, as an embedder returns them


def _server_vector(mem: Memory, value: object) -> list[float]:
    db = mem._engine.store.executor.db
    g = db.select_graph("t-vector-param-probe")
    try:
        rows = g.ro_query("RETURN vecf32($v) AS v", {"v": value}).result_set
    except Exception:
        rows = g.query("RETURN vecf32($v) AS v", {"v": value}).result_set
    return [float(x) for x in rows[0][0]]


def test_the_server_reads_the_exact_float32_vector(mem: Memory) -> None:
    v = [*_vec(1), 0.0, -0.0, 1.0, 1e-12, -3.5e-7]
    assert _server_vector(mem, VectorParam(v)) == _server_vector(mem, v)
    assert _server_vector(mem, VectorParam(v)) == [float(np.float32(x)) for x in v]


def test_eight_digits_are_what_ingest_always_wrote(mem: Memory) -> None:
    v = _vec(2)
    old = [float(f"{x:.8g}") for x in v]  # the row format before VectorParam
    assert _server_vector(mem, VectorParam(v, digits=8)) == _server_vector(mem, old)


def test_vector_param_is_reused_and_sized() -> None:
    p = VectorParam([0.5, -0.25])
    assert vector_param(p) is p
    assert len(p) == 2 and str(p) == "[0.5,-0.25]"
    assert str(VectorParam([])) == "[]"


def test_stored_embeddings_and_search_scores_match_the_floats(tenant: Tenant) -> None:
    texts = ["the ferry leaves at nine", "a cat sleeps on the mat", "flight LH 452 to Oslo on Monday"]
    vectors = [_vec(10 + i) for i in range(len(texts))]
    tenant.add_many(
        [
            {"id": f"m{i}", "text": t, "embedding": v}
            for i, (t, v) in enumerate(zip(texts, vectors, strict=True))
        ]
    )
    rows = (
        tenant._engine.store.executor.db.select_graph(tenant.graph)
        .ro_query("MATCH (a:Artifact) RETURN a.id, a.embedding ORDER BY a.id")
        .result_set
    )
    for (_, stored), v in zip(rows, vectors, strict=True):
        assert max(abs(a - b) for a, b in zip(stored, v, strict=True)) < 1e-7
    r = retrieve(
        tenant._engine, tenant.id, texts[2], k=3, route="vector", channels={"vector"}, vector=vectors[2]
    )
    cos = {i: sum(a * b for a, b in zip(vectors[2], v, strict=True)) for i, v in enumerate(vectors)}
    assert r.channels["vector"][0][0] == "m2"
    for i, score in r.channels["vector"]:
        assert math.isclose(score, cos[int(i[1:])], abs_tol=1e-5)
