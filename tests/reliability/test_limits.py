"""Every limit in the "Input limits" table of docs/limits.md is enforced with an error naming the field,
and nothing is written (the tenant graph's fingerprint is unchanged)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from falkmem import InputError, InvalidTenantId, LimitExceeded, Memory, Tenant
from tests.helpers import fingerprint

from .figures import add, record

TENANT = "limits"


@pytest.fixture(scope="module")
def lt(hmem: Memory) -> Iterator[Tenant]:
    hmem.drop_tenant(TENANT)
    t = hmem.tenant(TENANT)
    t.add("Priya Chandran leads the Atlas team.", id="seed", session="s1", entities=["Atlas team"])
    yield t
    hmem.drop_tenant(TENANT)


def _rec(**kw: Any) -> dict[str, Any]:
    return {"text": "A valid memory.", **kw}


S = 257  # one over the 256-character limit of ids, session, speaker, agent, user, key

CASES: list[tuple[str, str, type[InputError], Callable[[Tenant], Any]]] = [
    # (what, the field the error must name, error class, call)
    ("text over 32,000", "text", LimitExceeded, lambda t: t.add("x" * 32_001)),
    ("text empty", "text", InputError, lambda t: t.add("")),
    ("text whitespace", "text", InputError, lambda t: t.add(" \n\t ")),
    ("metadata over 16 KiB", "metadata", LimitExceeded, lambda t: t.add("m", metadata={"k": "v" * 16_400})),
    ("metadata not JSON", "metadata", InputError, lambda t: t.add("m", metadata={"k": object()})),
    ("metadata NaN", "metadata", InputError, lambda t: t.add("m", metadata={"k": float("nan")})),
    ("batch over 1,000", "batch_size", LimitExceeded, lambda t: t.add_many([_rec()], batch_size=1001)),
    ("batch 0", "batch_size", LimitExceeded, lambda t: t.add_many([_rec()], batch_size=0)),
    ("k over 200", "k", LimitExceeded, lambda t: t.search("Atlas", k=201)),
    ("k 0", "k", LimitExceeded, lambda t: t.search("Atlas", k=0)),
    ("k negative", "k", LimitExceeded, lambda t: t.search("Atlas", k=-1)),
    ("k bool", "k", LimitExceeded, lambda t: t.search("Atlas", k=True)),
    ("query over 4,000", "query", LimitExceeded, lambda t: t.search("q" * 4001)),
    ("query empty", "query", InputError, lambda t: t.search("  ")),
    ("context query over 4,000", "query", LimitExceeded, lambda t: t.context("q" * 4001)),
    ("explain k over 200", "k", LimitExceeded, lambda t: t.explain("Atlas", k=201)),
    ("101 entities", "entities", LimitExceeded, lambda t: t.add("e", entities=[f"Entity {i}" for i in range(101)])),
    ("101 triples", "triples", LimitExceeded,
     lambda t: t.add("t", triples=[(f"Person {i}", "knows", f"Person {i + 1}") for i in range(101)])),
    ("entity name over 256", "entities", InputError, lambda t: t.add("e", entities=["E" * S])),
    ("triple part over 256", "triples", InputError, lambda t: t.add("t", triples=[("A" * S, "knows", "B")])),
    ("id over 256", "id", InputError, lambda t: t.add("i", id="i" * S)),
    ("id with a control character", "id", InputError, lambda t: t.add("i", id="a\x01b")),
    ("session over 256", "session", LimitExceeded, lambda t: t.add("s", session="s" * S)),
    ("speaker over 256", "speaker", LimitExceeded, lambda t: t.add("s", speaker="s" * S)),
    ("agent over 256", "agent", LimitExceeded, lambda t: t.add("s", agent="s" * S)),
    ("user over 256", "user", LimitExceeded, lambda t: t.add("s", user="s" * S)),
    ("key over 256", "key", LimitExceeded, lambda t: t.add("s", key="k" * S)),
    ("unknown kind", "kind", InputError, lambda t: t.add("k", kind="secret")),
    ("bad date", "at", InputError, lambda t: t.add("d", at="yesterday")),
    ("wrong embedding dimension", "embedding", InputError, lambda t: t.add_many([_rec(embedding=[0.1] * 3)])),
    ("embedding not finite", "embedding", InputError, lambda t: t.add_many([_rec(embedding=[float("inf")] * 384)])),
    ("one bad record spoils the batch", "records[2].text", LimitExceeded,
     lambda t: t.add_many([_rec(id="ok1"), _rec(id="ok2"), _rec(text="x" * 32_001)])),
    ("budget 0", "budget_tokens", InputError, lambda t: t.context("Atlas", budget_tokens=0)),
    ("max_hops 4", "max_hops", InputError, lambda t: t.search("Atlas", route="hybrid", max_hops=4)),
    ("unknown route", "route", InputError, lambda t: t.search("Atlas", route="graph")),  # type: ignore[arg-type]
]  # fmt: skip


@pytest.mark.parametrize(("what", "field", "cls", "call"), CASES, ids=[c[0] for c in CASES])
def test_limit_is_enforced_and_nothing_is_written(
    hmem: Memory, lt: Tenant, what: str, field: str, cls: type[InputError], call: Callable[[Tenant], Any]
) -> None:
    before = fingerprint(hmem, lt.graph)
    with pytest.raises(cls) as err:
        call(lt)
    e = err.value
    assert e.field == field or e.field.endswith("." + field) or e.field == f"records[0].{field}", (
        e.field,
        str(e),
    )
    assert str(e).startswith(e.field + ": ") and len(e.rule) > 10  # names the field and the rule
    assert fingerprint(hmem, lt.graph) == before, f"{what}: something was written"
    add("limits", "cases", 1)


def test_limits_at_the_boundary_are_accepted(hmem: Memory, lt: Tenant) -> None:
    """The documented maximum itself is allowed (the limits are not off by one)."""
    assert lt.add("x" * 32_000, id="max-text") == "max-text"
    assert lt.add("m", id="max-meta", metadata={"k": "v" * (16_384 - 9)})  # {"k": "..."} is 9 bytes + value
    assert lt.add("e", id="max-ent", entities=[f"Entity {i}" for i in range(100)])
    assert lt.add("i", id="i" * 256, session="s" * 256, speaker="s" * 256, agent="a" * 256, user="u" * 256)
    assert len(lt.search("Atlas", k=200)) >= 1
    longest = ("Who leads the Atlas team? " * 160)[:4000]
    assert len(longest) == 4000 and lt.search(longest, k=1).ids == ["seed"]
    with pytest.raises(LimitExceeded):
        lt.search(longest + "?", k=1)
    assert lt.add_many([_rec(id=f"b{i}") for i in range(1000)], batch_size=1000).added[-1] == "b999"
    record("limits", boundary_checks=7)


@pytest.mark.parametrize("bad", ["A", "a b", "../x", "x" * 64, "-a", "a:b", ""])
def test_tenant_id_limit(hmem: Memory, bad: str) -> None:
    before = hmem.tenants()
    with pytest.raises(InvalidTenantId) as err:
        hmem.tenant(bad)
    assert err.value.field == "tenant_id"
    assert hmem.tenants() == before
    add("limits", "cases", 1)
