"""``falkmem list | forget | history | maintain`` and the filter options of search/context/explain."""

from __future__ import annotations

import json
from typing import Any

import pytest

from falkmem import Tenant

from .conftest import Invoke

SEED = [
    {"id": "c1", "text": "Priya leads the Atlas team.", "session": "s1", "user": "dana", "kind": "fact",
     "metadata": {"project": "atlas", "n": 1}, "at": "2026-01-05T00:00Z"},
    {"id": "c2", "text": "Atlas ships the Helios release in May.", "session": "s2", "user": "omar",
     "metadata": {"project": "helios"}, "at": "2026-02-05T00:00Z"},
    {"id": "c3", "text": "The Atlas cafeteria serves pasta on Fridays.", "session": "s1", "kind": "note",
     "at": "2026-03-05T00:00Z"},
    {"id": "k1", "text": "UA 837 arrives at 10:05.", "key": "ua837", "kind": "fact", "at": "2026-03-03T08:00Z"},
]  # fmt: skip


@pytest.fixture
def seeded(invoke: Invoke, tenant: Tenant, tmp_path: Any) -> Tenant:
    p = tmp_path / "seed.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in SEED) + "\n")
    assert invoke("add", tenant.id, "--jsonl", str(p)).exit_code == 0
    tenant.add("UA 837 now arrives at 11:40.", id="k2", key="ua837", kind="fact", at="2026-03-03T09:00Z")
    return tenant


def test_list_pages_and_filters(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("list", seeded.id, "--json")
    assert r.exit_code == 0, r.stderr
    assert {h["id"] for h in json.loads(r.stdout)["items"]} == {"c1", "c2", "c3", "k2"}
    r = invoke("list", seeded.id, "--history", "--limit", "2", "--all", "--nl")
    assert sorted(json.loads(x)["id"] for x in r.stdout.splitlines()) == ["c1", "c2", "c3", "k1", "k2"]
    r = invoke("list", seeded.id, "--limit", "1")
    assert "more: --cursor" in r.stderr
    cursor = r.stderr.split("--cursor ")[1].split()[0]
    assert invoke("list", seeded.id, "--limit", "1", "--cursor", cursor, "--json").exit_code == 0
    r = invoke("list", seeded.id, "--session", "s1", "--kind", "note", "--json")
    assert [h["id"] for h in json.loads(r.stdout)["items"]] == ["c3"]
    r = invoke("list", seeded.id, "--meta", "n=1", "--json")
    assert [h["id"] for h in json.loads(r.stdout)["items"]] == ["c1"]
    assert invoke("list", seeded.id, "--cursor", "garbage").exit_code == 2
    assert invoke("list", seeded.id, "--meta", "novalue").exit_code == 2


def test_search_context_explain_take_filters(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("search", seeded.id, "Atlas", "--user", "omar", "--json")
    assert [h["id"] for h in json.loads(r.stdout)["hits"]] == ["c2"]
    r = invoke("search", seeded.id, "Atlas", "--meta", "project=atlas", "--since", "2026-01-01", "--json")
    assert [h["id"] for h in json.loads(r.stdout)["hits"]] == ["c1"]
    r = invoke("context", seeded.id, "Atlas", "--session", "s2", "--json")
    assert json.loads(r.stdout)["used"] == ["c2"]
    r = invoke("explain", seeded.id, "Atlas", "--kind", "note", "--json")
    assert [h["id"] for h in json.loads(r.stdout)["hits"]] == ["c3"]
    assert invoke("search", seeded.id, "Atlas", "--kind", "bogus").exit_code == 2
    assert "kind" in invoke("search", seeded.id, "Atlas", "--kind", "bogus").stderr


def test_forget_by_ids_and_by_filters(invoke: Invoke, seeded: Tenant) -> None:
    assert invoke("forget", seeded.id).exit_code == 2  # nothing named: refuses
    assert invoke("forget", seeded.id, "c1", "--session", "s1").exit_code == 2
    r = invoke("forget", seeded.id, "c1", "nope", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["artifacts"] == 1
    r = invoke("forget", seeded.id, "--session", "s1", "--kind", "note")
    assert r.exit_code == 0 and "artifacts" in r.stdout
    assert {h.id for h in seeded.list(include_history=True)} == {"c2", "k1", "k2"}


def test_history_and_maintain(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("history", seeded.id, "ua837", "--json")
    assert r.exit_code == 0, r.stderr
    entries = json.loads(r.stdout)["entries"]
    assert [e["id"] for e in entries] == ["k1", "k2"] and entries[0]["superseded_by"] == "k2"
    assert "superseded" in invoke("history", seeded.id, "ua837").stdout
    assert invoke("history", seeded.id, "no-such-key").exit_code == 2
    r = invoke("maintain", seeded.id, "--json")
    assert r.exit_code == 0 and seeded.id in json.loads(r.stdout)
    assert invoke("maintain").exit_code == 2
    r = invoke("maintain", "--all", "--json")
    assert r.exit_code == 0 and seeded.id in json.loads(r.stdout)
