"""What a new user meets first (issue 50): with ``--json`` an error is one JSON object (same exit
code), a single ``add`` TEXT is checked like ``Tenant.add`` (no "line 1: ... BadLines")."""

from __future__ import annotations

import json

from falkmem import Memory, Tenant

from .conftest import Invoke


def _error(stderr: str) -> dict[str, object]:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr  # one JSON object, nothing else
    out = json.loads(lines[0])
    assert set(out) == {"error"}
    return dict(out["error"])


def test_json_errors_are_json_with_the_same_exit_codes(invoke: Invoke, tenant: Tenant) -> None:
    missing = invoke("search", tenant.id, "who leads Atlas?", "--json")
    assert missing.exit_code == 2 and missing.stdout == ""
    err = _error(missing.stderr)
    assert err["type"] == "TenantNotFound" and err["exit_code"] == 2 and tenant.id in str(err["message"])
    nl = invoke("search", tenant.id, "who leads Atlas?", "--nl")
    assert nl.exit_code == 2 and _error(nl.stderr)["type"] == "TenantNotFound"
    hist = invoke("history", tenant.id, "some-key", "--json")
    assert hist.exit_code == 2 and _error(hist.stderr)["type"] == "TenantNotFound"
    bad_id = invoke("context", "Bad Tenant!", "q", "--json")
    assert bad_id.exit_code == 2 and _error(bad_id.stderr)["type"] == "InvalidTenantId"
    usage = invoke("search", tenant.id, "q", "--k", "many", "--json")  # a click usage error
    assert usage.exit_code == 2 and _error(usage.stderr)["type"] == "BadParameter"
    blank = invoke("add", tenant.id, "   ", "--json")
    err = _error(blank.stderr)
    assert blank.exit_code == 2 and err["field"] == "text" and err["type"] == "InputError"
    # without --json: the one line as before
    plain = invoke("search", tenant.id, "who leads Atlas?")
    assert plain.exit_code == 2 and plain.stderr.startswith("Error: TenantNotFound: ")


def test_add_of_a_blank_text_says_what_is_wrong(invoke: Invoke, tenant: Tenant) -> None:
    r = invoke("add", tenant.id, "   ")
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        "Error: InputError: text: must be a non-empty string (whitespace alone is not a memory)"
    ]
    assert "BadLines" not in r.stderr and "line 1" not in r.stderr
    bad_kind = invoke("add", tenant.id, "Priya leads Atlas.", "--kind", "bogus")
    assert bad_kind.exit_code == 2 and "Error: InputError: kind: must be one of" in bad_kind.stderr


def test_every_read_of_a_missing_tenant_is_the_same_error(
    invoke: Invoke, mem: Memory, tenant: Tenant
) -> None:
    """``context`` on a tenant nothing was added to used to print an empty context and exit 0
    where ``history`` failed: every read is TenantNotFound now, exit 2, with or without
    ``--json``, nothing on stdout, and nothing created."""
    reads = [
        ("search", tenant.id, "Who leads Atlas?"),
        ("context", tenant.id, "Who leads Atlas?"),
        ("explain", tenant.id, "Who leads Atlas?"),
        ("history", tenant.id, "atlas-lead"),
        ("list", tenant.id),
    ]
    for args in reads:
        plain = invoke(*args)
        assert plain.exit_code == 2 and plain.stdout == "", (args, plain.stdout)
        assert plain.stderr.startswith(f"Error: TenantNotFound: tenant {tenant.id!r} does not exist"), args
        as_json = invoke(*args, "--json")
        err = _error(as_json.stderr)
        assert as_json.exit_code == 2 and as_json.stdout == "", args
        assert err["type"] == "TenantNotFound" and err["exit_code"] == 2, (args, err)
    assert not mem.admin.store.exists(tenant.id)


def test_a_query_with_a_nul_character_is_refused_like_add(invoke: Invoke, tenant: Tenant) -> None:
    tenant.add("Priya Chandran leads the Atlas team.")
    added = invoke("add", tenant.id, "Priya\x00 leads Atlas.", "--json")
    assert added.exit_code == 2 and _error(added.stderr)["rule"] == "must not contain NUL characters"
    for command in ("search", "context", "explain"):
        r = invoke(command, tenant.id, "who leads\x00 Atlas?", "--json")
        err = _error(r.stderr)
        assert r.exit_code == 2 and r.stdout == "", command
        assert err["type"] == "InputError" and err["field"] == "query", (command, err)
        assert err["rule"] == "must not contain NUL characters", (command, err)
    assert tenant.count() == 1
