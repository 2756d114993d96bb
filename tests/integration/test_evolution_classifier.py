"""LLMClassifier and reconcile() against a local OpenAI-compatible HTTP server started by the test."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from falkmem import Memory, Tenant
from falkmem.errors import ExtractionError
from falkmem.evolution.classifier import LLMClassifier
from tests.helpers import graph_rows
from tests.integration.test_llm_extractor import FakeOpenAI, completion


def verdict(relation: str) -> tuple[int, str]:
    return 200, completion(json.dumps({"relation": relation, "reason": "test"}))


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    f = FakeOpenAI()
    yield f
    f.server.shutdown()


def classifier(fake: FakeOpenAI) -> LLMClassifier:
    return LLMClassifier(
        model="test-model", base_url=fake.url, api_key="k", backoff_initial_s=0.01, backoff_max_s=0.02
    )


def test_classifier_validates_and_retries(fake: FakeOpenAI) -> None:
    fake.script = [
        (200, completion("not json")),
        (500, "{}"),
        (200, completion('{"relation": "Supersession"}')),
    ]
    v = classifier(fake).classify("Deadline is March.", "Deadline moved to August.")
    assert v.relation == "supersession" and len(fake.requests) == 3
    body = fake.requests[-1]
    assert body["model"] == "test-model" and "OLD: Deadline is March." in body["messages"][1]["content"]


def test_classifier_gives_up_without_leaking_text(fake: FakeOpenAI) -> None:
    fake.script = [(200, completion('{"relation": "maybe"}'))]
    with pytest.raises(ExtractionError) as err:
        LLMClassifier(base_url=fake.url, api_key="k", max_retries=1, backoff_initial_s=0.01).classify(
            "secret a", "secret b"
        )
    assert "secret" not in str(err.value) and len(fake.requests) == 2


def test_reconcile_supersedes_and_links_duplicates(mem: Memory, tenant: Tenant, fake: FakeOpenAI) -> None:
    tenant.add("The quarterly review meeting is on Tuesday at the Lisbon office.", id="old", at="2026-01-01")
    tenant.add(
        "The quarterly review meeting moved to Thursday at the Lisbon office.", id="new", at="2026-01-05"
    )
    fake.script = [verdict("supersession")]
    out = tenant.reconcile("new", classifier=classifier(fake), k=3, min_similarity=0.5)
    assert [(d.other, d.relation, d.action, d.winner) for d in out.decisions] == [
        ("old", "supersession", "superseded", "new")
    ]
    assert (
        tenant.get("old").status == "superseded"
        and tenant.get("old").invalid_at == tenant.get("new").valid_at
    )
    edges = [
        (r[2]["id"], r[3]["id"], r[1]["reason"])
        for r in graph_rows(mem, tenant.graph)
        if len(r) == 4 and r[0] == "SUPERSEDES"
    ]
    assert edges == [("new", "old", "supersession")]
    assert [e.id for e in tenant.history(entity="Lisbon office")] == ["old", "new"]

    tenant.add("Quarterly review meeting: Thursday, Lisbon office.", id="dup", at="2026-01-06")
    fake.script = [verdict("duplicate")]
    out = tenant.reconcile("dup", classifier=classifier(fake), k=3, min_similarity=0.5)
    assert out.decisions[0].action == "linked_duplicate" and out.decisions[0].winner == "new"
    assert tenant.get("dup").status == "superseded"

    tenant.add("The cafeteria serves ramen on Thursdays.", id="food")
    fake.script = [verdict("unrelated")]
    out = tenant.reconcile("food", classifier=classifier(fake), k=3, min_similarity=0.05)
    assert all(d.action == "none" for d in out.decisions) and tenant.get("food").status == "active"
