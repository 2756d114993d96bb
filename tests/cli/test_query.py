"""``falkmem search | context | explain``: output shapes on a small tenant (hash embedder: fast)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from falkmem import Tenant

from .conftest import Invoke

SEED = [
    {"id": "q1", "text": "Priya Chandran leads the Atlas team.", "session": "s1",
     "triples": [("Atlas team", "built", "Project Helios")]},
    {"id": "q2", "text": "Project Helios ships in May.", "session": "s1"},
    {"id": "q3", "text": "The cafeteria serves pasta on Fridays.", "kind": "note"},
]  # fmt: skip


@pytest.fixture
def seeded(invoke: Invoke, tenant: Tenant, tmp_path: Any) -> Tenant:
    p = tmp_path / "seed.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in SEED) + "\n")
    assert invoke("add", tenant.id, "--jsonl", str(p)).exit_code == 0
    return tenant


def test_search_shapes(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("search", seeded.id, "pasta cafeteria Fridays", "--k", "2", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["hits"][0]["id"] == "q3" and len(out["hits"]) == 2
    assert set(out["hits"][0]) >= {"id", "text", "kind", "score", "session", "channels"}
    nl = [json.loads(x) for x in invoke("search", seeded.id, "pasta", "--nl").stdout.splitlines()]
    assert nl and all("id" in h for h in nl)
    human = invoke("search", seeded.id, "pasta cafeteria", "--k", "1").stdout
    assert human.splitlines()[0].split() == ["RANK", "RELEVANCE", "SCORE", "ID", "KIND", "TEXT"]
    assert invoke("search", seeded.id, "   ").exit_code == 2
    assert invoke("search", seeded.id, "x", "--k", "0").exit_code == 2


def test_search_min_relevance(invoke: Invoke, seeded: Tenant) -> None:
    off = "How many bones does an adult human hand have?"
    every = json.loads(invoke("search", seeded.id, off, "--k", "3", "--json").stdout)["hits"]
    assert len(every) == 3 and all(0 <= h["relevance"] < 0.033 for h in every)
    r = invoke("search", seeded.id, off, "--k", "3", "--min-relevance", "0.033")
    assert r.exit_code == 0 and r.stdout.strip() == "no memories found"
    on = json.loads(
        invoke("search", seeded.id, "pasta cafeteria Fridays", "--min-relevance", "0.033", "--json").stdout
    )
    assert on["hits"][0]["id"] == "q3" and all(h["relevance"] >= 0.033 for h in on["hits"])
    assert invoke("search", seeded.id, "pasta", "--min-relevance", "1.5").exit_code == 2


def test_search_route(invoke: Invoke, seeded: Tenant) -> None:
    for route in ("vector", "hybrid"):
        r = invoke("search", seeded.id, "How is Priya connected to Helios?", "--route", route, "--json")
        assert r.exit_code == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["query_route"] == route
        if route == "hybrid":  # the graph reaches both memories about Priya and Helios
            assert {"q1", "q2"} <= {h["id"] for h in out["hits"][:2]}


def test_context(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("context", seeded.id, "What does the Atlas team build?", "--budget", "60", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["tokens"] <= 60 and out["text"]
    r = invoke("context", seeded.id, "What does the Atlas team build?", "--budget", "60")
    assert r.exit_code == 0 and r.stdout.strip() and "tokens" in r.stderr
    assert invoke("context", seeded.id, "q", "--budget", "0").exit_code == 2


def test_explain(invoke: Invoke, seeded: Tenant) -> None:
    r = invoke("explain", seeded.id, "How is Priya connected to Project Helios?", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"plan", "channels", "timings_ms", "hits"} <= set(out)
    human = invoke("explain", seeded.id, "How is Priya connected to Project Helios?").stdout
    assert "channel" in human and "timings_ms" in human


def test_explain_shows_what_each_leaning_gave(invoke: Invoke, tenant: Tenant, tmp_path: Any) -> None:
    turns = [
        {"id": "t1", "speaker": "Elise", "session": "s1", "text": "Elise: Wow skiing looks like so much fun"},
        {
            "id": "t2",
            "speaker": "Kate",
            "session": "s2",
            "text": "Kate: I've been skiing for about ten years now",
        },
    ]
    p = tmp_path / "chat.jsonl"
    p.write_text("\n".join(json.dumps(t) for t in turns) + "\n")
    assert invoke("add", tenant.id, "--jsonl", str(p)).exit_code == 0
    out = json.loads(invoke("explain", tenant.id, "When did Kate start skiing?", "--json").stdout)
    assert out["leanings"]["t1"]["impersonal"] == pytest.approx(-0.05)
    assert out["leanings"]["t2"]["speaker"] == pytest.approx(0.2)
    human = invoke("explain", tenant.id, "When did Kate start skiing?").stdout
    assert "leanings" in human and "impersonal -0.05" in human and "speaker +0.2" in human
