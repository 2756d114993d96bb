"""A password in the URL never shows: errors, ``Memory.location``, settings, logs, the CLI (issue 12, item 10)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from falkmem import ConfigError, ConnectionFailed, FalkmemError, Memory, Settings
from falkmem.admin import acl
from falkmem.cli.app import cli
from falkmem.testing import HashEmbedder

SECRET = "hunter2-s3cr3t"

UNREACHABLE = [
    f"redis://127.0.0.1:1/0?password={SECRET}",
    f"redis://127.0.0.1:1/0?username=app&password={SECRET}",
    f"redis://app:{SECRET}@127.0.0.1:1/0",
    f"redis://:{SECRET}@127.0.0.1:1",
    f"rediss://127.0.0.1:1?ssl_password={SECRET}",
    f"unix:///nonexistent/falkmem.sock?password={SECRET}",
    f"redis://127.0.0.1:1,127.0.0.1:2/0?password={SECRET}",
    f"redis://app:{SECRET}@127.0.0.1:1,127.0.0.1:2",
    f"redis://app:{SECRET}?x@127.0.0.1:1",  # an unencoded "?": redis-py reads the password as a port
]


@pytest.mark.parametrize("url", UNREACHABLE)
def test_connection_errors_hide_the_password(url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises((ConnectionFailed, ConfigError)) as err:
        Memory(url=url, embedder=HashEmbedder(), retry_attempts=1, connect_timeout_s=2).close()
    assert SECRET not in str(err.value)
    assert SECRET not in caplog.text


@pytest.mark.parametrize("url", UNREACHABLE[:4])
def test_cli_errors_hide_the_password(url: str) -> None:
    for args in (["doctor", "--json"], ["tenants", "list"], ["--debug", "tenants", "list"]):
        r = CliRunner().invoke(cli, ["--url", url, *args], obj={"embedder": HashEmbedder()})
        assert r.exit_code != 0
        assert SECRET not in r.stdout + r.stderr, args


def test_settings_repr_hides_the_password() -> None:
    s = Settings.load(url=f"redis://app:{SECRET}@db:6379/0?password={SECRET}", openai_api_key=SECRET)
    assert SECRET not in repr(s) and SECRET not in str(s)
    assert s.url is not None and SECRET in s.url  # the value itself is kept for connecting


@pytest.fixture
def server_url(mem: Memory, store_path: Path) -> str:
    """The session's server as a URL without credentials (the embedded store's unix socket)."""
    url = os.environ.get("FALKMEM_TEST_URL")
    if url:
        return url
    return "unix://" + str(json.loads((store_path / "server.json").read_text())["socket"])


def test_location_of_a_live_server_hides_the_password(mem: Memory, tenant_id: str, server_url: str) -> None:
    mem.create_tenant(tenant_id)
    user = f"r-{tenant_id}"
    grant = acl.grant(mem, tenant_id, user, password=SECRET)
    try:
        sep = "&" if "?" in server_url else "?"
        forms = [f"{server_url}{sep}username={user}&password={SECRET}"]
        scheme, rest = server_url.split("://", 1)
        if "@" not in rest:
            forms.append(f"{scheme}://{user}:{SECRET}@{rest}")
        for url in forms:
            with Memory(url=url, embedder=HashEmbedder(384)) as m:
                assert m.tenant(tenant_id).count() == 0  # connected as the granted user
                assert SECRET not in m.location and SECRET not in repr(m.settings)
                with pytest.raises(FalkmemError) as err:
                    m.tenant(tenant_id + "-other").count()
                assert SECRET not in str(err.value)
    finally:
        assert grant.user == user
        acl.revoke(mem, tenant_id, user)
        mem.drop_tenant(tenant_id)
