"""add_many's pipeline on a real FalkorDB with the real MiniLM: batch N+1 is embedded and
extracted while batch N is written, the embedder one batch ahead of extraction at most, each
batch atomic, reruns idempotent."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from falkmem import EmbeddingError, Tenant
from tests.helpers import Recording


def _records(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"r{i}", "text": f"Memory number {i}: Dana Whitfield met the Orion team."} for i in range(n)
    ]


@pytest.fixture
def recording(tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> Recording:
    rec = Recording(tenant._engine.embedder)
    monkeypatch.setattr(tenant._engine, "embedder", rec)
    return rec


def _on_create(tenant: Tenant, monkeypatch: pytest.MonkeyPatch, hook: Any) -> list[list[str]]:
    """Call ``hook(ids)`` before every create query; returns the ids of each create, in order."""
    ex = tenant._engine.store.executor
    real = ex.run
    creates: list[list[str]] = []

    def run(graph: str, q: Any, params: Any = None, **kw: Any) -> Any:
        if q.name in ("ingest/create_artifacts", "ingest/create_batch"):
            ids = [r["id"] for r in params["rows"]]
            hook(ids)
            out = real(graph, q, params, **kw)
            creates.append(ids)
            return out
        return real(graph, q, params, **kw)

    monkeypatch.setattr(ex, "run", run)
    return creates


def test_next_batch_is_embedded_while_this_one_is_written(
    tenant: Tenant, recording: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(6)
    overlapped: list[bool] = []

    def hook(ids: list[str]) -> None:
        # the write of batch i waits (bounded) for the embedding of batch i+1 to start:
        # a sequential add_many would time out here and record False
        i = int(ids[0][1:]) // 2
        if i + 1 < 3:
            overlapped.append(recording.wait_started(records[2 * (i + 1)]["text"], timeout=20))

    creates = _on_create(tenant, monkeypatch, hook)
    progress: list[tuple[int, int]] = []
    result = tenant.add_many(records, batch_size=2, on_progress=lambda d, t: progress.append((d, t)))
    assert overlapped == [True, True]
    assert creates == [["r0", "r1"], ["r2", "r3"], ["r4", "r5"]]  # written in order, one query each
    assert result.added == tuple(r["id"] for r in records) and result.skipped == ()
    assert progress == [(2, 6), (4, 6), (6, 6)]
    assert tenant.count() == 6


def test_at_most_one_batch_is_embedded_ahead(
    tenant: Tenant, recording: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(8)
    seen_when_writing: list[int] = []

    def hook(ids: list[str]) -> None:
        time.sleep(0.3)  # a slow write: the embedder must not run further ahead meanwhile
        seen_when_writing.append(len(recording.started))

    _on_create(tenant, monkeypatch, hook)
    tenant.add_many(records, batch_size=2)
    # while batch i is written, batch i+1 is extracted and batch i+2 at most is embedded:
    # batches 0..i+2 at most have started embedding
    assert all(n <= i + 3 for i, n in enumerate(seen_when_writing)), seen_when_writing


def test_next_batch_is_extracted_while_this_one_is_written(
    tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(6)
    eng = tenant._engine
    extracted: list[str] = []
    cond = threading.Condition()
    real_extract = eng.extractor.extract

    def extract(text: str, **kw: Any) -> Any:
        out = real_extract(text, **kw)
        with cond:
            extracted.append(text)
            cond.notify_all()
        return out

    monkeypatch.setattr(eng.extractor, "extract", extract)
    overlapped: list[bool] = []

    def hook(ids: list[str]) -> None:
        # the write of batch i waits (bounded) for the extraction of batch i+1: a pipeline that
        # extracted only after writing would time out here and record False
        i = int(ids[0][1:]) // 2
        if i + 1 < 3:
            nxt = records[2 * (i + 1) + 1]["text"]
            with cond:
                overlapped.append(cond.wait_for(lambda: nxt in extracted, timeout=20))

    creates = _on_create(tenant, monkeypatch, hook)
    tenant.add_many(records, batch_size=2)
    assert overlapped == [True, True]
    assert creates == [["r0", "r1"], ["r2", "r3"], ["r4", "r5"]]
    assert tenant.count() == 6


def test_known_entities_of_earlier_batches_reach_later_ones(tenant: Tenant, recording: Recording) -> None:
    # extraction of a batch runs after the batches before it were written and noted
    tenant.add_many(
        [
            {"id": "a", "text": "Priya Chandran leads the Atlas team."},
            {"id": "b", "text": "Tea is served at four."},
            {"id": "c", "text": "We asked priya chandran about it."},  # lower case: only known names match
        ],
        batch_size=2,
    )
    hist = tenant.history(entity="Priya Chandran")
    assert {e.id for e in hist.entries} == {"a", "c"}


def test_an_embedding_failure_keeps_the_batches_before_it(
    tenant: Tenant, recording: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(6)
    recording.fail_on = records[4]["text"]
    with pytest.raises(EmbeddingError):
        tenant.add_many(records, batch_size=2)
    assert tenant.count() == 4  # batches 0 and 1 written whole, batch 2 not at all
    assert not [t for t in threading.enumerate() if t.name.startswith("falkmem-embed")]
    recording.fail_on = None
    again = tenant.add_many(records, batch_size=2)  # the rerun completes it, embedding only what is new
    assert again.added == ("r4", "r5") and set(again.skipped) == {f"r{i}" for i in range(4)}
    assert tenant.count() == 6


def test_a_write_failure_stops_the_pipeline(
    tenant: Tenant, recording: Recording, monkeypatch: pytest.MonkeyPatch
) -> None:
    def hook(ids: list[str]) -> None:
        if ids[0] == "r2":
            raise RuntimeError("disk full")

    _on_create(tenant, monkeypatch, hook)
    with pytest.raises(RuntimeError, match="disk full"):
        tenant.add_many(_records(8), batch_size=2)
    assert tenant.count() == 2
    # batch 2 failed; batch 3 at most was extracted and batch 4 embedded, never written
    assert len(recording.started) <= 5
    assert not [t for t in threading.enumerate() if t.name.startswith(("falkmem-embed", "falkmem-write"))]


def test_reruns_embed_nothing_and_duplicates_across_batches_are_skipped(
    tenant: Tenant, recording: Recording
) -> None:
    first = tenant.add_many(
        [{"id": "a", "text": "Alpha."}, {"id": "b", "text": "Beta."}, {"id": "a", "text": "Alpha again."},
         {"id": "c", "text": "Gamma."}],
        batch_size=2,
    )  # fmt: skip
    assert first.added == ("a", "b", "c") and first.skipped == ("a",)
    assert tenant.get("a").text == "Alpha."
    embedded = recording.texts
    again = tenant.add_many([{"id": x, "text": "x"} for x in "abc"], batch_size=2)
    assert again.added == () and set(again.skipped) == {"a", "b", "c"}
    assert recording.texts == embedded  # existing ids are never embedded again
