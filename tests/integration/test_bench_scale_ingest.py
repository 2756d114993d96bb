"""The scale harness's ingest on a real FalkorDB: positions go in a chunk at a time, none lost.

``add_many`` validates (so holds) every record it is given before writing; the harness must
not hand it the 900,000 positions on the way to the 1M point at once (14 GB of vectors).
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import scale, scale_stream
from benchmarks.datasets.base import MemoryItem
from falkmem import Memory, Tenant


def test_the_harness_adds_a_chunk_at_a_time_and_every_position_once(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = [
        MemoryItem(id=f"m{i}", text=f"Turn {i} of the scale stream.", session=f"s{i // 2}") for i in range(5)
    ]
    q = scale_stream.ScaleQuestion(id="q1", text="Turn 1?", source="x", gold_texts=frozenset({"Turn 1"}))
    stream = scale_stream.Stream(base=base, questions=[q], source="chat")
    monkeypatch.setattr(scale, "TENANT", tenant.id)
    monkeypatch.setattr(scale, "CHUNK", 3)
    sizes: list[int] = []
    real = Tenant.add_many

    def counting(self: Tenant, records: Any, **kw: Any) -> Any:
        records = list(records)
        sizes.append(len(records))
        return real(self, records, **kw)

    monkeypatch.setattr(Tenant, "add_many", counting)
    out = scale._ingest(mem, stream, 2, 9)
    assert sizes == [3, 3, 1]
    assert out["memories"] == 7
    assert tenant.count() == 7
    want = [r["id"] for r in stream.records(2, 9)]  # positions 5.. are the second cycle: c1/m0...
    assert [tenant.get(i).id for i in want] == want
