"""``falkmem add``: one text, a text file, JSONL records; bad lines reported by number."""

from __future__ import annotations

import json
from pathlib import Path

from falkmem import Memory, Tenant
from tests.helpers import fingerprint

from .conftest import Invoke


def test_add_one_text_then_search(invoke: Invoke, tenant: Tenant) -> None:
    r = invoke("add", tenant.id, "Priya leads the Atlas team.", "--id", "p1", "--session", "s1", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["added"] == 1 and out["added_ids"] == ["p1"] and out["skipped"] == 0 and out["failed"] == 0
    again = json.loads(invoke("add", tenant.id, "Priya leads the Atlas team.", "--id", "p1", "--json").stdout)
    assert again["added"] == 0 and again["skipped_ids"] == ["p1"]
    assert tenant.get("p1").session == "s1"
    assert invoke("add", tenant.id).exit_code == 2  # no source
    assert invoke("add", tenant.id, "x", "--file", __file__).exit_code == 2  # two sources


def test_add_file_by_paragraph_and_by_line(invoke: Invoke, tenant: Tenant, tmp_path: Path) -> None:
    f = tmp_path / "notes.md"
    f.write_text("First memory,\nstill the first.\n\n\nSecond memory.\n\nThird.\n")
    r = invoke("add", tenant.id, "--file", str(f), "--kind", "note")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("added 3, skipped 0 as duplicates, failed 0")
    r = invoke("add", tenant.id, "--file", str(f), "--split", "line", "--json")
    assert json.loads(r.stdout)["added"] == 4
    assert tenant.count() == 7


def _jsonl(tmp_path: Path) -> Path:
    lines = [json.dumps({"id": f"j{i}", "text": f"Memory number {i} about topic {i}."}) for i in range(1, 11)]
    lines[6] = '{"id": "j7", "text": "broken'  # line 7: bad JSON
    lines[2] = json.dumps({"id": "j3", "kind": "note"})  # line 3: no text
    lines[8] = json.dumps(
        {"id": "j9", "text": "has a vector", "embedding": [0.1] * 7}
    )  # line 9: wrong dimension
    lines[4] = json.dumps({"id": "j5", "text": "full record", "kind": "fact", "session": "s1", "speaker": "ann",
                           "at": "2025-01-02T03:04:05Z", "metadata": {"k": 1}, "entities": ["Atlas"],
                           "triples": [["Atlas team", "built", "Helios"]]})  # fmt: skip
    p = tmp_path / "m.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return p


def test_bad_jsonl_lines_are_reported_and_nothing_is_written(
    invoke: Invoke, mem: Memory, tenant: Tenant, tmp_path: Path
) -> None:
    tenant.add("An existing memory.", id="keep")
    before = fingerprint(mem, tenant.graph)
    r = invoke("add", tenant.id, "--jsonl", str(_jsonl(tmp_path)))
    assert r.exit_code == 2
    assert "line 3: text: Field required" in r.stderr
    assert "line 7: not valid JSON" in r.stderr
    assert "line 9: embedding: has 7 values; this tenant stores 384" in r.stderr
    assert "broken" not in r.stderr  # the content of a line is never echoed
    assert fingerprint(mem, tenant.graph) == before


def test_skip_bad_adds_the_good_lines(invoke: Invoke, tenant: Tenant, tmp_path: Path) -> None:
    r = invoke("add", tenant.id, "--jsonl", str(_jsonl(tmp_path)), "--skip-bad", "--json")
    assert r.exit_code == 2  # something was refused
    out = json.loads(r.stdout)
    assert out["added"] == 7 and out["failed"] == 3
    assert [p["line"] for p in out["problems"]] == [3, 7, 9]
    full = tenant.get("j5")
    assert (full.kind, full.session, full.speaker, full.metadata) == ("fact", "s1", "ann", {"k": 1})
    again = json.loads(
        invoke("add", tenant.id, "--jsonl", str(_jsonl(tmp_path)), "--skip-bad", "--json").stdout
    )
    assert again["added"] == 0 and again["skipped"] == 7


def test_real_minilm_end_to_end(base_args: list[str], mem: Memory, tenant: Tenant) -> None:
    """No test embedder: the CLI builds the default all-MiniLM-L6-v2 from its settings."""
    from click.testing import CliRunner

    from falkmem.cli.app import cli

    run = CliRunner()
    for i, text in enumerate(["Priya Chandran leads the Atlas team.", "The cafeteria serves pasta on Fridays.",
                              "Helios ships in May."]):  # fmt: skip
        r = run.invoke(cli, [*base_args, "add", tenant.id, text, "--id", f"r{i}"], catch_exceptions=False)
        assert r.exit_code == 0, r.stderr
    r = run.invoke(cli, [*base_args, "search", tenant.id, "who leads Atlas?", "--k", "2", "--json"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["hits"][0]["id"] == "r0" and len(out["hits"]) == 2
    assert set(out) >= {"tenant", "query_route", "reranker", "timings_ms", "hits"}
    assert mem._engine.store.meta(tenant.id).dimension == 384
