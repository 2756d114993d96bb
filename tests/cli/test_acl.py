"""``tenants grant/revoke``: a granted user reads and writes its tenant and is refused elsewhere."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import pytest
import redis

from falkmem import FalkmemError, Memory

from .conftest import Invoke


@pytest.fixture
def server_url(mem: Memory, store_path: Path) -> str:
    """The session's server as an operator URL: FALKMEM_TEST_URL, or the embedded store's socket."""
    url = os.environ.get("FALKMEM_TEST_URL")
    if url:
        return url
    return "unix://" + str(json.loads((store_path / "server.json").read_text())["socket"])


@pytest.fixture
def user_url(server_url: str) -> str:
    """The same server without the operator's credentials (redis-py lets a URL's win)."""
    scheme, _, rest = server_url.partition("://")
    rest, _, query = rest.rpartition("@")[2].partition("?")
    kept = [(k, v) for k, v in parse_qsl(query) if k not in ("username", "password")]
    return f"{scheme}://{rest}" + (f"?{urlencode(kept)}" if kept else "")


def _can_log_in(user_url: str, user: str, password: str) -> bool:
    raw = redis.Redis.from_url(user_url, username=user, password=password, decode_responses=True)
    try:
        return bool(raw.ping())
    except redis.exceptions.AuthenticationError:
        return False
    finally:
        raw.close()


def _user_exists(server_url: str, user: str) -> bool:
    raw = redis.Redis.from_url(server_url, decode_responses=True)
    try:
        return raw.execute_command("ACL", "GETUSER", user) is not None
    finally:
        raw.close()


def test_grant_reads_the_password_from_a_hidden_prompt(
    invoke: Invoke, tenant_id: str, user_url: str, tenants_to_drop: list[str]
) -> None:
    tenants_to_drop.append(tenant_id)
    user = f"p-{tenant_id}"
    assert invoke("tenants", "create", tenant_id).exit_code == 0
    try:
        r = invoke("tenants", "grant", tenant_id, "--user", user, "--password", input="pw-typed\npw-typed\n")
        assert r.exit_code == 0, r.output
        assert "pw-typed" not in r.output  # not echoed, not printed back
        assert _can_log_in(user_url, user, "pw-typed")
        r = invoke("tenants", "grant", tenant_id, "--user", user, "--password", input="one\nother\n")
        assert r.exit_code != 0 and _can_log_in(user_url, user, "pw-typed")  # mismatch: unchanged
    finally:
        invoke("tenants", "revoke", tenant_id, "--user", user)


def test_grant_reads_the_password_from_stdin(
    invoke: Invoke, tenant_id: str, user_url: str, tenants_to_drop: list[str]
) -> None:
    tenants_to_drop.append(tenant_id)
    user = f"s-{tenant_id}"
    assert invoke("tenants", "create", tenant_id).exit_code == 0
    try:
        r = invoke(
            "tenants", "grant", tenant_id, "--user", user, "--password-stdin", "--json", input="pw-piped\n"
        )
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["password"] is None and "pw-piped" not in r.output
        assert _can_log_in(user_url, user, "pw-piped")
        r = invoke("tenants", "grant", tenant_id, "--user", user, "--password-stdin", input="\n")
        assert r.exit_code == 2 and "password" in r.stderr  # empty: refused
    finally:
        invoke("tenants", "revoke", tenant_id, "--user", user)


def test_grant_refuses_a_password_on_the_command_line(
    invoke: Invoke, tenant_id: str, server_url: str, tenants_to_drop: list[str]
) -> None:
    tenants_to_drop.append(tenant_id)
    user = f"c-{tenant_id}"
    assert invoke("tenants", "create", tenant_id).exit_code == 0
    r = invoke("tenants", "grant", tenant_id, "--user", user, "--password", "pw-visible")
    assert r.exit_code == 2
    assert "--password-stdin" in r.stderr and "pw-visible" not in r.output
    assert not _user_exists(server_url, user)  # nothing written


def test_granted_user_cannot_read_server_wide_info(
    invoke: Invoke, tenant_id: str, user_url: str, hash_embedder: object, tenants_to_drop: list[str]
) -> None:
    tenants_to_drop.append(tenant_id)
    user = f"i-{tenant_id}"
    assert invoke("tenants", "create", tenant_id).exit_code == 0
    r = invoke("tenants", "grant", tenant_id, "--user", user, "--json")
    assert r.exit_code == 0, r.output
    password = json.loads(r.stdout)["password"]
    raw = redis.Redis.from_url(user_url, username=user, password=password, decode_responses=True)
    try:
        # INFO with no section, and the sections with key counts and the client list: refused.
        for args in (
            ("INFO",),
            ("INFO", "keyspace"),
            ("INFO", "clients"),
            ("INFO", "all"),
            ("CLIENT", "LIST"),
        ):
            with pytest.raises(redis.exceptions.NoPermissionError):
                raw.execute_command(*args)
        assert "redis_version" in raw.info("server")  # what falkordb-py's FalkorDB() reads
        assert "cluster_enabled" in raw.info("cluster")  # what falkmem's cluster probe reads
    finally:
        raw.close()
    with Memory(url=user_url, username=user, password=password, embedder=hash_embedder) as m:
        m.tenant(tenant_id).add("Priya leads the Atlas team.", id="a1")
        assert m.tenant(tenant_id).count() == 1
    assert invoke("tenants", "revoke", tenant_id, "--user", user).exit_code == 0


def test_granted_user_is_confined_to_its_tenant(
    invoke: Invoke,
    mem: Memory,
    tenant_id: str,
    server_url: str,
    user_url: str,
    hash_embedder: object,
    tenants_to_drop: list[str],
) -> None:
    mine, other = tenant_id + "-a", tenant_id + "-b"
    tenants_to_drop.extend([mine, other])
    user = f"u-{tenant_id}"
    assert invoke("tenants", "grant", mine, "--user", user).exit_code == 2  # tenant must exist
    for t in (mine, other):
        assert invoke("tenants", "create", t).exit_code == 0
    mem.tenant(other).add("Other tenant's secret plan.", id="o1")

    r = invoke("tenants", "grant", mine, "--user", user, "--json")
    assert r.exit_code == 0, r.stderr
    g = json.loads(r.stdout)
    assert g["tenants"] == [mine] and g["password"] and "+@all" not in g["commands"]

    raw = redis.Redis.from_url(server_url, decode_responses=True)
    try:
        rules = raw.execute_command("ACL", "GETUSER", user)
        flat = json.dumps(rules)
        assert f"~falkmem:{mine}" in flat and "+@all" not in flat
    finally:
        raw.close()

    url = user_url
    with Memory(url=url, username=user, password=g["password"], embedder=hash_embedder) as m:
        t = m.tenant(mine)
        t.add("Priya leads the Atlas team.", id="a1", entities=["Atlas team"])
        assert t.search("who leads Atlas?", k=1).ids == ["a1"]
        assert t.count() == 1
        for call in (lambda: m.tenant(other).search("secret plan", k=1),
                     lambda: m.tenant(other).add("sneaky write", id="x"),
                     lambda: m.tenant(other).count()):  # fmt: skip
            with pytest.raises(FalkmemError) as err:
                call()
            assert "permission" in str(err.value).lower()
        with pytest.raises(FalkmemError):
            m.drop_tenant(mine)  # GRAPH.DELETE is not granted
        with pytest.raises(redis.exceptions.NoPermissionError):
            m._engine.store.db.connection.execute_command("GRAPH.CONFIG", "SET", "TIMEOUT_MAX", "0")
    assert mem.tenant(other).count() == 1

    r = invoke("tenants", "revoke", mine, "--user", user, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["deleted"] is True
    # the user is gone: authentication fails (Store's constructor lets redis' error through)
    with pytest.raises((FalkmemError, redis.exceptions.AuthenticationError)):
        Memory(
            url=url, username=user, password=g["password"], embedder=hash_embedder, retry_attempts=1
        ).close()
    assert invoke("tenants", "revoke", mine, "--user", user).exit_code == 2  # no such user
    assert invoke("tenants", "grant", mine, "--user", "default").exit_code == 2


def test_a_user_can_hold_two_tenants_and_lose_one(
    invoke: Invoke, tenant_id: str, tenants_to_drop: list[str]
) -> None:
    a, b = tenant_id + "-x", tenant_id + "-y"
    tenants_to_drop.extend([a, b])
    user = f"v-{tenant_id}"
    for t in (a, b):
        assert invoke("tenants", "create", t).exit_code == 0
    assert invoke("tenants", "grant", a, "--user", user, "--password-stdin", input="pw-1\n").exit_code == 0
    r = json.loads(invoke("tenants", "grant", b, "--user", user, "--json").stdout)
    assert r["tenants"] == sorted([a, b]) and r["password"] is None
    r = json.loads(invoke("tenants", "revoke", a, "--user", user, "--json").stdout)
    assert r["tenants"] == [b] and r["deleted"] is False
    assert json.loads(invoke("tenants", "revoke", b, "--user", user, "--json").stdout)["deleted"] is True
