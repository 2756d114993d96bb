"""ingest/aggregate.py: a batch's entities, edges and stems folded for ingest/create_batch."""

from __future__ import annotations

import doctest

import pytest

from falkmem.ingest import aggregate
from falkmem.ingest.aggregate import EVIDENCE_SEP, batch_params, evidence_ids


def test_doctests() -> None:
    assert doctest.testmod(aggregate).failed == 0


def _row(i: str, ents: list[tuple[str, str]], triples: list[tuple[str, str, float]], stems: str) -> dict:
    return {
        "id": i, "key": None, "valid_at": 1.0, "session": None, "stems": stems, "n_tokens": 3,
        "entities": [{"key": k, "name": n, "type": "other", "head": False} for k, n in ents],
        "triples": [{"subject": s, "subject_name": s.title(), "relation": "related_to", "object": o,
                     "object_name": o.title(), "weight": w, "label": None} for s, o, w in triples],
    }  # fmt: skip


def test_mentions_come_before_endpoints_and_edges_keep_statement_order() -> None:
    rows = [
        _row("a", [("x", "X")], [("y", "x", 0.5), ("y", "x", 0.25)], " x:1 y:1 "),
        _row("b", [("y", "Y"), ("x", "x!")], [("z", "x", 1.0), ("y", "x", 0.125)], " x:2 "),
    ]
    p = batch_params(rows)
    # y is named by b, so it is a mention (created with b's name), not an endpoint of a's triple
    assert [e["key"] for e in p["entities"]] == ["x", "y"] and p["entities"][0]["names"] == ["X", "x!"]
    assert p["endpoints"] == [{"key": "z", "name": "Z"}]
    yx = next(e for e in p["edges"] if (e["s"], e["o"]) == (1, 0))
    assert yx["weights"] == [0.5, 0.25, 0.125] and yx["ids"] == EVIDENCE_SEP.join(["a", "a", "b"])
    assert p["refs"] == [
        {"a": 0, "e": 0, "h": None},
        {"a": 1, "e": 1, "h": None},
        {"a": 1, "e": 0, "h": None},
    ]
    assert p["terms"] == [{"stem": "x", "c": 2}, {"stem": "y", "c": 1}] and p["tokens"] == 6.0
    assert "entities" not in p["rows"][0] and "triples" not in p["rows"][0]


def test_a_keyed_row_is_refused() -> None:
    row = _row("a", [], [], " ")
    row["key"] = "budget"
    with pytest.raises(ValueError, match="fact key"):
        batch_params([row])


def test_evidence_ids_reads_every_form() -> None:
    assert evidence_ids({"evidence": "a"}) == ["a"]
    assert evidence_ids({"evidence_old": f"a{EVIDENCE_SEP}b", "evidence": f"c{EVIDENCE_SEP}d"}) == list(
        "abcd"
    )
    assert evidence_ids({"artifact_ids": ["p", "q"]}) == ["p", "q"]
