"""Logs never carry memory text, query text or parameter values: a full run at DEBUG, with
distinctive markers in every field, and not one log record may contain any of them."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from falkmem import FalkmemError, InputError, Memory, NotFound

from .conftest import DenseEmbedder, stop_server
from .figures import record

MARKERS = {
    "text": "qqtextmarker",
    "id": "qqidmarker",
    "session": "qqsessionmarker",
    "speaker": "qqspeakermarker",
    "agent": "qqagentmarker",
    "user": "qqusermarker",
    "metadata_key": "qqmetakeymarker",
    "metadata_value": "qqmetavaluemarker",
    "entity": "Qqentitymarker",
    "triple": "Qqtriplemarker",
    "key": "qqkeymarker",
    "query": "qqquerymarker",
}


def test_no_log_record_contains_text_queries_or_values(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    m = MARKERS
    path = tmp_path / "store"
    caplog.set_level(logging.DEBUG)  # root and every falkmem* logger
    try:
        with Memory(path, embedder=DenseEmbedder()) as mem:
            t = mem.tenant("logs")
            t.add(
                f"{m['text']} Priya Chandran leads the Atlas team.", id=m["id"], session=m["session"],
                speaker=m["speaker"], agent=m["agent"], user=m["user"],
                metadata={m["metadata_key"]: m["metadata_value"]}, entities=[m["entity"]],
                triples=[(m["triple"], "works with", "Priya Chandran")],
            )  # fmt: skip
            t.add(f"{m['text']} fact one", kind="fact", key=m["key"], id=m["id"] + "2")
            t.add(f"{m['text']} fact two", kind="fact", key=m["key"], id=m["id"] + "3")
            t.add_many(
                [
                    {"text": f"{m['text']} {i}", "id": f"{m['id']}-{i}", "session": m["session"]}
                    for i in range(30)
                ]
            )
            q = f"{m['query']} who leads Atlas with {m['entity']}?"
            assert t.search(q, k=5).hits
            assert t.search(q, k=5, route="hybrid", max_hops=3).hits
            assert t.context(q, budget_tokens=200).text
            assert t.explain(q, k=5).hits
            assert t.get(m["id"]).text.startswith(m["text"])
            assert t.count() == 32  # the second keyed fact superseded the first
            assert t.history(key=m["key"]).model_dump()
            assert t.history(entity=m["entity"]).model_dump()
            t.health()
            t.consolidate(dry_run=True)
            assert t.delete(m["id"] + "-0") is True
            assert t.forget(m["id"] + "-1").model_dump()
            assert t.forget(session=m["session"]).model_dump()
            # error paths log too: bad input, missing ids
            for call in (
                lambda: t.get(m["id"] + "-missing"),
                lambda: t.add(m["text"] * 10_000),
                lambda: t.search(m["query"] * 1000),
                lambda: t.history(key=m["key"] + "-missing"),
            ):
                with pytest.raises((InputError, NotFound, FalkmemError)) as err:
                    call()
                assert m["text"] not in str(err.value) and m["query"] not in str(err.value)
            mem.drop_tenant("logs")
    finally:
        stop_server(path)
    records = caplog.records
    assert records, "nothing was logged at DEBUG: the test would prove nothing"
    assert any("query=" in r.getMessage() for r in records), "query names should be logged"
    leaks = []
    for r in records:
        shown = " ".join(
            [r.getMessage(), repr(r.args), r.exc_text or "", str(r.__dict__.get("extra", ""))]
        ).lower()
        leaks += [(field, r.name, r.getMessage()[:120]) for field, v in m.items() if v.lower() in shown]
    record("logs", records=len(records), loggers=len({r.name for r in records}), leaks=len(leaks))
    assert not leaks, leaks[:5]
