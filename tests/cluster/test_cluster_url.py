"""Cluster URL parsing (no server needed; runs in the default test run)."""

from __future__ import annotations

import pytest

from falkmem.errors import ConfigError
from falkmem.storage.cluster import ClusterUrl, parse_cluster_url


def test_single_node_urls_are_not_cluster_urls() -> None:
    assert parse_cluster_url("redis://127.0.0.1:6379") is None
    assert parse_cluster_url("rediss://user:pw@host:6380/0") is None
    assert parse_cluster_url("unix:///tmp/redis.sock") is None


def test_seed_list() -> None:
    assert parse_cluster_url("redis://127.0.0.1:30001,127.0.0.1:30002") == ClusterUrl(
        (("127.0.0.1", 30001), ("127.0.0.1", 30002)), tls=False
    )


def test_cluster_scheme_with_credentials_and_tls() -> None:
    u = parse_cluster_url("rediss+cluster://alice:p%40ss@db1:7000")
    assert u == ClusterUrl((("db1", 7000),), tls=True, username="alice", password="p@ss")
    assert parse_cluster_url("redis+cluster://:secret@db1:7000,db2:7000/0") == ClusterUrl(
        (("db1", 7000), ("db2", 7000)), tls=False, username=None, password="secret"
    )


@pytest.mark.parametrize(
    "url",
    [
        "redis://h1:1,h2",  # no port
        "redis+cluster://h1:x",  # bad port
        "redis://h1:1,h2:2/3",  # database other than 0
        "redis://h1:1,h2:2?ssl_cert_reqs=none",  # options
    ],
)
def test_malformed_cluster_urls(url: str) -> None:
    with pytest.raises(ConfigError):
        parse_cluster_url(url)
