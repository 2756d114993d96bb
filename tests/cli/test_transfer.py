"""Export → import is lossless (graphs compared property by property); bad files are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from falkmem import Memory
from falkmem.storage.cypher import query
from tests.helpers import graph_dump

from .conftest import Invoke

RECORDS = [
    {"id": "m1", "text": "Priya Chandran leads the Atlas team.", "session": "s1", "user": "dana",
     "agent": "scribe", "speaker": "dana", "metadata": {"source": "chat", "n": 1, "tags": ["a", "b"]},
     "entities": ["Priya Chandran", {"name": "Atlas team", "type": "organization"}],
     "triples": [("Atlas team", "built", "Project Helios")], "at": "2025-03-01T10:05:00Z"},
    {"id": "m2", "text": "Project Helios was shipped by the Atlas team in May.", "session": "s1", "user": "dana",
     "triples": [("Atlas team", "shipped", "Project Helios")], "kind": "event"},
    {"id": "m3", "text": "The Helios budget is 40k.", "key": "helios-budget", "kind": "fact", "session": "s2",
     "at": "2025-01-01T00:00:00Z"},
    {"id": "m4", "text": "The Helios budget is 55k.", "key": "helios-budget", "kind": "fact", "session": "s2",
     "at": "2025-06-01T00:00:00Z"},
    {"id": "m5", "text": "No session, no entities: a bare note.", "kind": "note"},
]  # fmt: skip


def _graph(mem: Memory, tenant: str) -> list[str]:
    """Every node and edge with every property, except the _Meta node (its timestamps differ)."""
    return [row for row in graph_dump(mem, mem._engine.store.graph(tenant)) if '["_Meta"]' not in row]


@pytest.fixture
def source(mem: Memory, tenant_id: str) -> str:
    mem.drop_tenant(tenant_id)
    t = mem.tenant(tenant_id)
    t.add_many(RECORDS)
    # a hand-made supersession link too, with properties, whatever the ingest path does
    store = mem._engine.store
    store.executor.run(store.graph(tenant_id), query("admin/import_supersedes"),
                       {"rows": [{"src": "m2", "dst": "m1", "props": {"reason": "test", "at": 1.5}}]})  # fmt: skip
    yield tenant_id
    mem.drop_tenant(tenant_id)


def test_export_import_round_trip_is_lossless(
    invoke: Invoke, mem: Memory, source: str, tmp_path: Path, tenants_to_drop: list[str]
) -> None:
    dst = source + "-copy"
    tenants_to_drop.append(dst)
    mem.drop_tenant(dst)
    out = tmp_path / "export.jsonl"
    r = invoke("tenants", "export", source, "-o", str(out), "--json")
    assert r.exit_code == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["counts"]["artifact"] == 5 and summary["counts"]["SUPERSEDES"] >= 1
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["dimension"] == 384 and lines[-1]["type"] == "end"
    art = next(x for x in lines if x["type"] == "artifact" and x["props"]["id"] == "m1")
    assert len(art["embedding"]) == 384 and art["sessions"][0]["id"] == "s1"
    assert {x["key"] for x in art["references"]} >= {"atlas team"}

    r = invoke("tenants", "import", dst, str(out), "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["counts"]["artifact"] == 5

    before, after = _graph(mem, source), _graph(mem, dst)
    assert len(before) > 20
    assert before == after  # every node and edge, every property, embeddings included
    # the copy answers like the source (the vector and full-text indexes hold every imported node)
    for q in ("Who leads the Atlas team?", "Helios budget", "bare note"):
        assert mem.tenant(dst).search(q, k=5).ids == mem.tenant(source).search(q, k=5).ids
    assert invoke("tenants", "import", dst, str(out)).exit_code == 2  # target holds data now


def test_copy_streams_export_into_import(
    invoke: Invoke, mem: Memory, source: str, tenants_to_drop: list[str]
) -> None:
    dst = source + "-cp"
    tenants_to_drop.append(dst)
    mem.drop_tenant(dst)
    r = invoke("tenants", "copy", source, dst, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["counts"]["artifact"] == 5
    assert _graph(mem, source) == _graph(mem, dst)
    assert invoke("tenants", "copy", source, source).exit_code == 2


def test_a_bad_export_file_is_refused_whole_with_line_numbers(
    invoke: Invoke, mem: Memory, source: str, tmp_path: Path, tenants_to_drop: list[str]
) -> None:
    good = tmp_path / "good.jsonl"
    assert invoke("tenants", "export", source, "-o", str(good)).exit_code == 0
    lines = good.read_text().splitlines()
    art = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "artifact")
    bad = list(lines)
    wrong = json.loads(bad[art])
    wrong["embedding"] = wrong["embedding"][:12]
    bad[art] = json.dumps(wrong)
    bad[art + 1] = bad[art + 1][:40]  # cut in the middle: not JSON
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n")
    dst = source + "-bad"
    tenants_to_drop.append(dst)
    r = invoke("tenants", "import", dst, str(path))
    assert r.exit_code == 2
    assert f"line {art + 1}: embedding has 12 values" in r.stderr
    assert f"line {art + 2}: not valid JSON" in r.stderr
    assert not mem.has_tenant(dst)  # nothing written, not even the tenant

    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("\n".join(lines[:-1]) + "\n")
    r = invoke("tenants", "import", dst, str(truncated))
    assert r.exit_code == 2 and "truncated" in r.stderr and not mem.has_tenant(dst)


def test_export_pages_lose_no_memory_whatever_the_ids(
    mem: Memory, tenant_id: str, tenants_to_drop: list[str]
) -> None:
    """Ids that FalkorDB's string range index orders wrongly (mixed case, a shared prefix) all
    come out, page after page: with `a.id > $after` paging, 5 of 459 LongMemEval turns were lost
    (`'sharegpt_BOhlQIZ_0:1'`... were skipped after `'sharegpt_BOhlQIZ_0:0'`)."""
    from falkmem.admin.transfer import export_tenant

    mem.drop_tenant(tenant_id)
    ids = [f"sharegpt_{s}_0:{i}" for s in ("BOhlQIZ", "Bg34muM", "PEr0L5a", "bOx", "B0x") for i in range(4)]
    mem.tenant(tenant_id).add_many(
        [
            {"id": i, "text": f"turn {n} of a chat about ticket {n}", "session": i.split(":")[0]}
            for n, i in enumerate(ids)
        ]
    )
    for page in (3, 5, 7, 500):
        lines = list(export_tenant(mem, tenant_id, page=page))
        got = [x["props"]["id"] for x in lines if x["type"] == "artifact"]
        assert sorted(got) == sorted(ids), (page, sorted(set(ids) - set(got)))
        sessions = [x["props"]["id"] for x in lines if x["type"] == "session"]
        assert sorted(sessions) == sorted({i.split(":")[0] for i in ids})
    mem.drop_tenant(tenant_id)
