"""Redis Cluster connections: seed-list URLs, slot routing, replica reads, fan-out to primaries.

Each tenant graph is one key, so one hash slot, so one shard: per-graph commands are routed
by redis-py's cluster client. Keyless admin commands (``GRAPH.LIST``, ``GRAPH.CONFIG``,
``INFO``, ``MODULE LIST``) are sent to every primary with :func:`on_primaries`.

The driver never resends a command: its retry count is 0 and falkmem's executor owns the
retry policy. Redirections (``MOVED``/``ASK``) are still followed by the driver, which is
safe because the redirecting node did not run the command.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from ..errors import ConfigError

log = logging.getLogger("falkmem.storage")

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}
"""Schemes that always mean a cluster, mapped to whether they use TLS."""

_PLAIN_SCHEMES = {"redis": False, "rediss": True}

_REPLICA_FALLBACK = ("empty key", "LOADING")
"""Replica answers that mean "not caught up yet": the read goes to the primary instead."""


@dataclass(frozen=True, slots=True)
class ClusterUrl:
    """The parts of a cluster URL: seed nodes, TLS, and credentials."""

    seeds: tuple[tuple[str, int], ...]
    tls: bool
    username: str | None = None
    password: str | None = None


def parse_cluster_url(url: str) -> ClusterUrl | None:
    """Parse a cluster URL; None when ``url`` names a single node (that may still be a cluster node).

    Cluster URLs are ``redis://[user:pass@]host1:port1,host2:port2`` (two or more seeds) or
    ``redis+cluster://[user:pass@]host:port[,host:port...]`` (``rediss`` for TLS).

    Raises:
        ConfigError: a malformed seed list.
    """
    scheme, sep, rest = url.partition("://")
    forced = scheme in CLUSTER_SCHEMES
    if not sep or (not forced and scheme not in _PLAIN_SCHEMES):
        return None
    netloc = rest.split("/", 1)[0]
    if "?" in netloc:
        netloc = netloc.split("?", 1)[0]
    userinfo, _, hosts = netloc.rpartition("@")
    if not forced and "," not in hosts:
        return None
    if "?" in rest:
        raise ConfigError("FALKMEM_URL: a cluster URL takes no query options")
    path = rest[len(netloc) :].lstrip("/")
    if path not in ("", "0"):
        raise ConfigError("FALKMEM_URL: a cluster has only database 0")
    seeds = []
    for item in hosts.split(","):
        host, colon, port = item.strip().rpartition(":")
        if not colon or not host or not port.isdigit():
            raise ConfigError(f"FALKMEM_URL: seed {item.strip()!r} is not host:port")
        seeds.append((host.strip("[]"), int(port)))
    username, password = None, None
    if userinfo:
        user, has_pass, pw = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(pw) if has_pass else None
    tls = CLUSTER_SCHEMES[scheme] if forced else _PLAIN_SCHEMES[scheme]
    return ClusterUrl(tuple(seeds), tls, username, password)


def cluster_enabled(client: redis.Redis) -> bool:
    """Whether the node behind ``client`` runs in cluster mode (``INFO cluster``)."""
    info = client.info("cluster")
    return str(info.get("cluster_enabled", 0)) == "1"


class FalkmemCluster(RedisCluster):
    """redis-py's cluster client that can send ``GRAPH.RO_QUERY`` to a replica of the graph's slot.

    Only ``GRAPH.RO_QUERY`` goes to replicas (replicas refuse the read-write query command); every other
    command, ``EXISTS`` included, goes to the primary. A replica that is down, loading, or
    does not have the graph yet (replication lag right after a tenant is created) is
    skipped and the read goes to the primary.
    """

    def __init__(self, *, replica_reads: bool = False, **kwargs: Any) -> None:
        self.replica_reads = replica_reads
        super().__init__(**kwargs)

    def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        """Run a command; a read-only graph query goes to a replica when replica reads are on."""
        if self.replica_reads and "target_nodes" not in kwargs and _is_ro_query(args):
            replica = self._replica_of(args[1])
            if replica is not None:
                try:
                    return super().execute_command(*args, target_nodes=replica, **kwargs)  # type: ignore[no-untyped-call]
                except redis.ConnectionError:
                    log.debug("replica %s unreachable; reading from the primary", replica.name)
                except redis.ResponseError as exc:
                    if not any(s in str(exc) for s in _REPLICA_FALLBACK):
                        raise
                    log.debug("replica %s not caught up; reading from the primary", replica.name)
        return super().execute_command(*args, **kwargs)  # type: ignore[no-untyped-call]

    def _replica_of(self, key: Any) -> ClusterNode | None:
        slot: int = self.keyslot(key)  # type: ignore[no-untyped-call]
        nodes: list[ClusterNode] = self.nodes_manager.slots_cache.get(slot) or []
        return random.choice(nodes[1:]) if len(nodes) > 1 else None  # [0] is the primary


def _is_ro_query(args: tuple[Any, ...]) -> bool:
    return len(args) > 1 and str(args[0]).upper() == "GRAPH.RO_QUERY"


def _readonly_on_connect(connection: Any) -> None:
    # A replica serves reads only on a connection that sent READONLY; on a primary it is a no-op.
    connection.send_command("READONLY")
    if connection.read_response() not in ("OK", b"OK"):
        raise redis.ConnectionError("READONLY was refused")


def connect(
    url: ClusterUrl,
    *,
    read_from_replicas: bool,
    socket_timeout: float,
    socket_connect_timeout: float,
    client_name: str,
) -> FalkmemCluster:
    """Open a cluster client on the seed nodes, with no driver-side retries.

    Raises:
        redis.RedisError, redis.exceptions.RedisClusterException: no seed node answered.
    """
    kwargs: dict[str, Any] = {}
    if read_from_replicas:
        kwargs["redis_connect_func"] = _readonly_on_connect
    return FalkmemCluster(
        replica_reads=read_from_replicas,
        startup_nodes=[ClusterNode(host, port) for host, port in url.seeds],  # type: ignore[no-untyped-call]
        # falkmem owns retries (executor.py); 0 here means "run once, never resend".
        retry=Retry(NoBackoff(), 0),
        require_full_coverage=False,
        decode_responses=True,
        ssl=url.tls,
        username=url.username,
        password=url.password,
        socket_timeout=socket_timeout,
        socket_connect_timeout=socket_connect_timeout,
        client_name=client_name,
        **kwargs,
    )


def falkordb_client(conn: Any) -> Any:
    """A ``falkordb.FalkorDB`` over an open cluster client.

    ``FalkorDB(host=...)`` would build its own cluster client and drop the socket timeouts,
    the client name and the no-retry policy, so the object is filled in the way its
    ``__init__`` ends.
    """
    import falkordb

    db = falkordb.FalkorDB.__new__(falkordb.FalkorDB)
    db.connection = conn
    db.flushdb = conn.flushdb
    db.execute_command = conn.execute_command
    return db


def on_primaries(conn: Any, *args: Any) -> Callable[[], dict[str, Any]]:
    """A call that sends ``args`` to every primary and returns ``{"host:port": answer}``.

    The primaries are looked up when the call runs, so a retry after a failover reaches
    the promoted replica.
    """

    def call() -> dict[str, Any]:
        return {node.name: conn.execute_command(*args, target_nodes=node) for node in conn.get_primaries()}

    return call
