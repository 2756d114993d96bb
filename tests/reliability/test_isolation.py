"""Isolation evidence: hostile tenant ids, hostile strings in every field, ACL-scoped users.

Every public call with hostile input must end in a result or a caller-side ``FalkmemError``
(never a raw driver exception, never a server crash), and must never change, or reveal,
another tenant's graph. The property test runs the public API under hypothesis and
fingerprints every victim tenant graph before and after each example.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from falkmem import (
    ConnectionFailed,
    FalkmemError,
    InputError,
    InvalidTenantId,
    Memory,
    NotFound,
    QueryFailed,
    Tenant,
    TenantNotFound,
)
from falkmem.admin import grant, revoke
from falkmem.tenancy.ids import TENANT_ID_PATTERN
from falkmem.testing import HashEmbedder
from tests.helpers import fingerprint

from .conftest import server_pid, server_socket
from .figures import add, record

SECRET = "zqvictimsecret"
"""Marker in every victim memory: it must never appear in another tenant's results."""

# Cypher, full-text (RediSearch) and JSON syntax, quoting, unicode direction marks, emoji,
# control characters next to NUL, a lone surrogate, and words that match the victims' texts.
SPECIALS = [
    "'", '"', "//", "/*", "*/", "*", "-", "--", "@", ")", "(", "|", "%", "~", "\\", "$", "{", "}",
    "[", "]", ":", ";", "`", "^", "!", "?", "&&", "||", "=", "<>", ",", ".", "\n", "\r\n", "\t",
    "x') MATCH (n) DETACH DELETE n //", "' OR 1=1 //", "\" RETURN 1 //", "}) DETACH DELETE n //",
    "$vector", "${rows}", "CALL db.idx.vector.queryNodes", "GRAPH.DELETE falkmem:victim-0",
    "@field:{a|b}", "-term", "~fuzzy%%", "%%%", "*wild*", "prefix*", '"exact phrase"',
    "\u202eevil\u202c", "\u200f\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "🎉", "👩\u200d💻",
    "\ufeff", "\u0000", "\x01", "\x02", "\x7f", "\ud800", "e\u0301", "Ａ", "İ", "ß",
    "secret", "launch code", "victim", "falkmem:iso-victim-0", "iso-victim-0",
]  # fmt: skip


def _join(parts: list[str]) -> str:
    return "".join(parts)


hostile_text = st.one_of(
    st.sampled_from(SPECIALS),
    st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(max_size=6)), min_size=1, max_size=8).map(_join),
    st.text(max_size=30),
    # ~100 KB strings (over every documented limit)
    st.sampled_from([*SPECIALS[:20], "a", "🎉"]).map(lambda s: s * (100_000 // len(s))),
)
hostile_short = st.one_of(
    st.sampled_from(SPECIALS),
    st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(max_size=4)), min_size=1, max_size=5).map(_join),
    st.text(min_size=250, max_size=260),
)

RECORD_FIELDS = ("text", "id", "session", "speaker", "agent", "user", "key")


@dataclass
class Victims:
    mem: Memory
    tenants: list[Tenant]
    prints: dict[str, str] = field(default_factory=dict)

    def snapshot(self) -> dict[str, str]:
        return {t.graph: fingerprint(self.mem, t.graph) for t in self.tenants}


def _make_victims(mem: Memory, prefix: str, n: int = 3) -> Victims:
    tenants = []
    for i in range(n):
        tid = f"{prefix}-victim-{i}"
        mem.drop_tenant(tid)
        t = mem.tenant(tid)
        t.add_many(
            [
                {"id": f"v{i}-1", "text": f"The {SECRET} launch code of victim {i} is 4242.", "session": "s1",
                 "user": "alice", "speaker": "alice", "metadata": {"secret": SECRET},
                 "entities": ["Project Helios"], "triples": [("Priya Chandran", "leads", "Atlas team")]},
                {"id": f"v{i}-2", "text": f"Priya Chandran {SECRET} reports to Marcus Webb.", "kind": "fact",
                 "key": "reports_to:priya"},
                {"id": f"v{i}-3", "text": f"x') MATCH (n) DETACH DELETE n // {SECRET}", "session": "s2"},
            ]
        )  # fmt: skip
        tenants.append(t)
    v = Victims(mem, tenants)
    v.prints = v.snapshot()
    return v


@pytest.fixture(scope="module")
def victims(hmem: Memory) -> Iterator[Victims]:
    v = _make_victims(hmem, "iso")
    yield v
    for t in v.tenants:
        hmem.drop_tenant(t.id)


CALLER_ERRORS = (InputError, NotFound, TenantNotFound)
"""What hostile caller input may end in: a rule broken, or a thing that does not exist."""


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", value)`` or ``("error", exc)`` for a FalkmemError; anything else fails the test."""
    try:
        return "ok", fn()
    except FalkmemError as exc:
        return "error", exc
    except Exception as exc:  # a raw driver exception, a UnicodeError, a crash...
        pytest.fail(f"raw {type(exc).__module__}.{type(exc).__name__} escaped: {exc!r}"[:500])


def _texts_of(value: Any) -> str:
    """Everything a result shows a caller, as one string (to look for the victims' marker)."""
    if hasattr(value, "model_dump_json"):
        return str(value.model_dump_json())
    return repr(value)


def _assert_server_alive(mem: Memory, pid: int, rel_path: Path) -> None:
    assert server_pid(rel_path) == pid, "the embedded server was restarted: it crashed"
    assert mem._engine.store.db.connection.ping()


# --- hostile tenant ids ----------------------------------------------------------------------

HOSTILE_TENANT_IDS = [
    "", " ", "a b", "../x", "x/../../y", "x') MATCH (n) DETACH DELETE n //", "falkmem:x", "x:y", "A", "Acme",
    "a*", "*", "?", "a?", "[a]", "{a}", "{tag}x", "a\n", "\na", "a\x00", "a\x01", "-a", "_a", "a.b", "a@b",
    "a|b", "a%b", "a~b", "a'b", 'a"b', "a\\b", "a" * 64, "x" * 100_000, "аcme", "acme\u200b", "ａcme",
    "🎉", "\u202eacme", "iso-victim-0 ", " iso-victim-0", "ISO-VICTIM-0", "iso-victim-0*", "iso-victim-?",
]  # fmt: skip


@pytest.mark.parametrize("bad", HOSTILE_TENANT_IDS, ids=lambda s: repr(s)[:30])
def test_hostile_tenant_ids_are_refused_everywhere(hmem: Memory, victims: Victims, bad: str) -> None:
    before_list = hmem.tenants()
    calls: list[Callable[[], Any]] = [
        lambda: hmem.tenant(bad), lambda: hmem.has_tenant(bad), lambda: hmem.drop_tenant(bad),
        lambda: hmem.create_tenant(bad), lambda: grant(hmem, bad, "nobody"),
    ]  # fmt: skip
    for call in calls:
        with pytest.raises(InvalidTenantId) as err:
            call()
        assert err.value.field == "tenant_id" and "^[a-z0-9][a-z0-9_-]{0,62}$" in str(err.value)
    assert hmem.tenants() == before_list
    assert victims.snapshot() == victims.prints


def test_valid_tenant_ids_map_to_exactly_one_graph_key(hmem: Memory) -> None:
    for tid in ("a", "0", "a-b_c", "x" * 63):
        t = hmem.tenant(tid)
        assert t.graph == f"falkmem:{tid}"
        assert hmem.has_tenant(tid) is False  # reading never creates it
        with pytest.raises(TenantNotFound):
            t.count()
        assert tid not in hmem.tenants()


# --- every string field, explicit table ------------------------------------------------------

TABLE = [s for s in SPECIALS if s.strip("\x00\x01\x02\ud800\ufeff") and s.strip()] + [
    "MATCH (n) RETURN n", "CREATE (:Artifact {id:'pwn'})", "'); DROP TABLE t; --", "\\'", "\\\"",
    "a\u0000b", "a\x01b", "a\ud800b", "x" * 300,
]  # fmt: skip


def test_hostile_strings_in_every_field_are_stored_verbatim_or_refused(
    hmem: Memory, victims: Victims
) -> None:
    """Each hostile string in each field: stored and read back byte for byte, or a clear InputError."""
    t = hmem.tenant("iso-table")
    hmem.drop_tenant(t.id)
    stored = refused = 0
    try:
        for n, s in enumerate(TABLE):
            for f in RECORD_FIELDS:
                kw: dict[str, Any] = {"text": f"plain text {n}", "id": f"row-{n}-{f}"}
                kw[f] = s if f != "text" else s + f" {n}"  # texts stay distinct
                kind, out = _outcome(lambda kw=kw: t.add(**kw))
                if kind == "error":
                    assert isinstance(out, InputError), f"{f}={s!r}: {out!r}"
                    assert out.field.endswith(f) or f == "key", f"{f}={s!r}: {out!r}"
                    refused += 1
                    continue
                stored += 1
                got = t.get(out)
                if f in ("id",):
                    assert got.id == s
                elif f == "key":
                    assert got.key is not None
                else:
                    attr = {"agent": "agent", "user": "user"}.get(f, f)
                    assert getattr(got, attr) == kw[f], f"{f}={s!r} did not round-trip"
            meta = {s: s, "nested": [s, {s: s}]}
            kind, out = _outcome(lambda meta=meta, n=n: t.add(f"meta {n}", id=f"meta-{n}", metadata=meta))
            if kind == "ok":
                assert t.get(out).metadata == meta
                stored += 1
            else:
                assert isinstance(out, InputError) and out.field.endswith("metadata"), repr(out)
                refused += 1
            for call in (
                lambda s=s: t.add(f"entity {s}", entities=[s], triples=[(s, "works with", "Bob Stone")]),
                lambda s=s: t.search(s, k=5),
                lambda s=s: t.context(s, budget_tokens=50),
                lambda s=s: t.explain(s, k=3),
                lambda s=s: t.get(s),
                lambda s=s: t.delete(s),
                lambda s=s: t.history(key=s),
                lambda s=s: t.history(entity=s),
                lambda s=s: t.forget(session=s),
            ):
                kind, out = _outcome(call)
                if kind == "error":
                    assert isinstance(out, CALLER_ERRORS), f"{s!r}: {out!r}"
                else:
                    assert SECRET not in _texts_of(out)
        assert victims.snapshot() == victims.prints
    finally:
        hmem.drop_tenant(t.id)
    record("hostile_table", strings=len(TABLE), fields=len(RECORD_FIELDS) + 1, stored=stored, refused=refused)
    assert stored > refused > 0


# --- property-based: the public API under hypothesis ------------------------------------------

Op = tuple[str, Any]

ops = st.one_of(
    st.tuples(st.just("add"), st.tuples(st.sampled_from(RECORD_FIELDS), hostile_text)),
    st.tuples(st.just("add_short"), st.tuples(st.sampled_from(RECORD_FIELDS[1:]), hostile_short)),
    st.tuples(st.just("meta"), st.tuples(hostile_short, hostile_text)),
    st.tuples(st.just("entities"), st.lists(hostile_short, min_size=1, max_size=3)),
    st.tuples(st.just("triple"), st.tuples(hostile_short, hostile_short, hostile_short)),
    st.tuples(
        st.just("add_many"), st.lists(st.tuples(st.sampled_from(RECORD_FIELDS), hostile_short), max_size=4)
    ),
    st.tuples(st.sampled_from(["search", "context", "explain", "hybrid"]), hostile_text),
    st.tuples(st.sampled_from(["get", "delete", "history_key", "history_entity"]), hostile_short),
    st.tuples(st.sampled_from(["forget_id", "forget_session", "forget_user"]), hostile_short),
    st.tuples(st.just("tenant"), st.one_of(hostile_short, st.from_regex(TENANT_ID_PATTERN, fullmatch=True))),
)


def _run_op(mem: Memory, t: Tenant, op: Op, victim_ids: set[str]) -> Any:
    name, arg = op
    if name == "add":
        f, s = arg
        kw = {"text": "a memory about Priya Chandran", f: s}
        return t.add(**kw)
    if name == "add_short":
        f, s = arg
        return t.add("a memory about the Atlas team", **{f: s})
    if name == "meta":
        k, v = arg
        return t.add("metadata memory", metadata={k: v, "n": [v]})
    if name == "entities":
        return t.add("entity memory", entities=arg)
    if name == "triple":
        return t.add("triple memory", triples=[arg])
    if name == "add_many":
        recs = [{"text": f"record {i}", f: s} if f != "text" else {"text": s} for i, (f, s) in enumerate(arg)]
        return t.add_many(recs, batch_size=2)
    if name == "search":
        return t.search(arg, k=10)
    if name == "hybrid":
        return t.search(arg, k=10, route="hybrid", max_hops=3)
    if name == "context":
        return t.context(arg, budget_tokens=200)
    if name == "explain":
        return t.explain(arg, k=5)
    if name == "get":
        return t.get(arg)
    if name == "delete":
        return t.delete(arg)
    if name == "history_key":
        return t.history(key=arg)
    if name == "history_entity":
        return t.history(entity=arg)
    if name == "forget_id":
        return t.forget(arg)
    if name == "forget_session":
        return t.forget(session=arg)
    if name == "forget_user":
        return t.forget(user=arg)
    if name == "tenant":
        if arg in victim_ids:
            return None  # a generated id that names a victim would be that victim: not an attack
        other = mem.tenant(arg)  # InvalidTenantId unless it matches the pattern
        assert TENANT_ID_PATTERN.fullmatch(arg)
        assert other.graph == "falkmem:" + arg
        try:
            other.add("hello from a generated tenant", id="g1")
            return other.search("hello", k=3)
        finally:
            mem.drop_tenant(arg)
    raise AssertionError(name)


@pytest.fixture(scope="module")
def attacker(hmem: Memory) -> Iterator[Tenant]:
    t = hmem.tenant("iso-attacker")
    hmem.drop_tenant(t.id)
    t.add(f"The attacker's own note mentions secret launch code and Priya Chandran {SECRET[:4]}.", id="own")
    yield t
    hmem.drop_tenant(t.id)


def test_public_api_under_hypothesis_never_leaks_or_crashes(
    hmem: Memory, victims: Victims, attacker: Tenant, rel_path: Path, request: pytest.FixtureRequest
) -> None:
    """300 examples (1-3 calls each) by default, 3,000 with ``--run-slow``."""
    pid = server_pid(rel_path)
    examples = 3000 if request.config.getoption("--run-slow") else 300
    victim_ids = {v.id for v in victims.tenants}
    name = "hypothesis_public_api"

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )  # fmt: skip
    @given(st.lists(ops, min_size=1, max_size=3))
    def run(program: list[Op]) -> None:
        add(name, "examples", 1)
        for op in program:
            add(name, "calls", 1)
            kind, out = _outcome(lambda op=op: _run_op(hmem, attacker, op, victim_ids))
            if kind == "error":
                add(name, "errors", 1)
                assert isinstance(out, CALLER_ERRORS), f"{op!r:.200} ended in {out!r}"
            else:
                add(name, "results", 1)
                if SECRET in _texts_of(out):
                    add(name, "leaks", 1)
                    pytest.fail(f"{op!r:.200} returned another tenant's memory")
        after = victims.snapshot()
        if after != victims.prints:
            add(name, "victim_changes", 1)
        assert after == victims.prints, "a victim tenant graph changed"
        _assert_server_alive(hmem, pid, rel_path)

    run()
    figs = {"examples": 0, "calls": 0, "errors": 0, "results": 0, "leaks": 0, "victim_changes": 0}
    from .figures import FIGURES

    figs.update(FIGURES.get(name, {}))
    record(name, **figs)
    assert figs["examples"] >= 100 and figs["results"] > 0 and figs["errors"] > 0


# --- ACL-scoped users --------------------------------------------------------------------------


@contextlib.contextmanager
def _granted(mem: Memory, rel_path: Path, tenant_id: str, user: str) -> Iterator[Memory]:
    g = grant(mem, tenant_id, user)
    assert g.tenants == (tenant_id,) and g.password
    url = f"unix://{server_socket(rel_path)}"
    scoped = Memory(url=url, username=user, password=g.password, embedder=HashEmbedder(384))
    try:
        yield scoped
    finally:
        scoped.close()
        with contextlib.suppress(FalkmemError):
            revoke(mem, tenant_id, user)


def test_acl_scoped_user_is_refused_outside_its_tenant(
    hmem: Memory, victims: Victims, rel_path: Path
) -> None:
    mine = "iso-acl-own"
    hmem.drop_tenant(mine)
    hmem.tenant(mine).add("The own tenant's note about the Atlas team.", id="own1")
    victim = victims.tenants[0]
    refused = 0
    try:
        with _granted(hmem, rel_path, mine, "rel-acl-user") as scoped:
            own = scoped.tenant(mine)
            own.add("Priya leads the Atlas team.", id="own2", entities=["Atlas team"])
            assert set(own.search("Atlas team", k=5).ids) == {"own1", "own2"}
            assert own.count() == 2
            other = scoped.tenant(victim.id)
            attempts: list[Callable[[], Any]] = [
                lambda: other.search("secret launch code", k=5),
                lambda: other.search("secret launch code", k=5, route="hybrid"),
                lambda: other.context("secret launch code"),
                lambda: other.explain("secret launch code"),
                lambda: other.get("v0-1"),
                lambda: other.count(),
                lambda: other.add("overwrite attempt", id="v0-1"),
                lambda: other.add_many([{"text": "sneaky", "id": "sneaky"}]),
                lambda: other.delete("v0-1"),
                lambda: other.forget("v0-1"),
                lambda: other.forget(session="s1"),
                lambda: other.history(key="reports_to:priya"),
                lambda: scoped.drop_tenant(victim.id),
                lambda: scoped.create_tenant("iso-acl-new"),
                lambda: scoped.tenant("iso-acl-new").add("create by writing"),
                lambda: scoped.tenants(),  # GRAPH.LIST names every tenant: not granted
                lambda: scoped.drop_tenant(mine),  # dropping is an operator task
            ]
            for call in attempts:
                kind, out = _outcome(call)
                assert kind == "error", f"call was allowed: {out!r:.200}"
                assert isinstance(out, QueryFailed), repr(out)
                assert re.search(r"permission", str(out), re.I), str(out)
                assert SECRET not in str(out)
                refused += 1
            assert own.count() == 2  # the connection still works after the refusals
        assert victims.snapshot() == victims.prints
        assert not hmem.has_tenant("iso-acl-new")
    finally:
        hmem.drop_tenant(mine)
    record("acl_scoped_user", refused_calls=refused, victim_changes=0, leaks=0)


def test_acl_revoked_user_loses_access_and_bad_password_is_a_clear_error(
    hmem: Memory, rel_path: Path
) -> None:
    mine = "iso-acl-revoke"
    hmem.drop_tenant(mine)
    hmem.tenant(mine).add("Revocable note.", id="r1")
    try:
        g = grant(hmem, mine, "rel-acl-revoked")
        url = f"unix://{server_socket(rel_path)}"
        with Memory(
            url=url, username="rel-acl-revoked", password=g.password, embedder=HashEmbedder(384)
        ) as m:
            assert m.tenant(mine).count() == 1
            revoke(hmem, mine, "rel-acl-revoked")
            kind, out = _outcome(lambda: m.tenant(mine).count())
            assert kind == "error", out
        # The driver probes the server while Memory is built: the refusal may come from there.
        kind, out = _outcome(
            lambda: (
                Memory(url=url, username="rel-nobody", password="wrong", embedder=HashEmbedder(384))
                .tenant(mine)
                .count()
            )
        )
        assert kind == "error" and isinstance(out, ConnectionFailed), repr(out)
        assert "credentials" in str(out) and "wrong" not in str(out), str(out)
    finally:
        hmem.drop_tenant(mine)
