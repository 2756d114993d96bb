"""The store: one connection (embedded or remote), the executor, and tenant graph lifecycle."""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, ConnectionFailed, QueryFailed, TenantExists, TenantNotFound
from ..settings import Settings, default_data_path
from ..tenancy.ids import graph_name, tenant_of, validate_tenant_id
from ..urls import redact_url
from . import cluster
from .cypher import query
from .embedded import CLIENT_NAME, EmbeddedServer, ServerInfo
from .executor import Executor
from .migrations import MIGRATIONS, Migration

if TYPE_CHECKING:
    from redis.cluster import RedisCluster

log = logging.getLogger("falkmem.storage")


class TenantMeta:
    """What a tenant graph records about itself."""

    __slots__ = ("dimension", "embedder", "schema_version")

    def __init__(self, schema_version: int, dimension: int, embedder: str) -> None:
        self.schema_version = schema_version
        self.dimension = dimension
        self.embedder = embedder


class Store:
    """Owns the connection and the per-tenant graph lifecycle (create, migrate, list, drop)."""

    def __init__(self, settings: Settings) -> None:
        import falkordb

        self.settings = settings
        self.server: EmbeddedServer | None = None
        common: dict[str, Any] = {
            # No socket timeout on the client's side would hang forever on a dead peer; a long one
            # (past the server's own query timeout) only fires when the server is gone.
            "socket_timeout": settings.query_timeout_ms / 1000 + 30,
            "socket_connect_timeout": settings.connect_timeout_s,
            "retry": None,  # falkmem owns retries (executor.py): redis-py's re-ran slow writes 11x
            "client_name": CLIENT_NAME,
        }
        self.cluster: RedisCluster | None = None
        if settings.url:
            if not settings.url.startswith(("redis://", "rediss://", "unix://", *_CLUSTER_PREFIXES)):
                raise ConfigError(
                    "FALKMEM_URL: must start with redis://, rediss://, unix:// or redis+cluster://"
                )
            import redis

            kwargs = dict(common)
            if settings.password is not None:
                kwargs["password"] = settings.password.get_secret_value()
            if settings.username is not None:
                kwargs["username"] = settings.username
            seeds = cluster.parse_cluster_url(settings.url)
            if seeds is None:
                try:
                    pool = redis.ConnectionPool.from_url(settings.url, decode_responses=True, **kwargs)
                except ValueError:  # redis-py's message may quote a part of the URL: not shown
                    raise ConfigError(
                        f"FALKMEM_URL: not a valid Redis URL: {redact_url(settings.url)}"
                    ) from None
                if not settings.url.startswith("unix://") and _probe_cluster(pool, settings.url):
                    pool.disconnect()
                    seeds = cluster.parse_cluster_url(_as_cluster_url(settings.url))
            if seeds is None:
                try:  # the driver probes the server (INFO) while it is constructed
                    self.db = falkordb.FalkorDB(connection_pool=pool)
                except redis.AuthenticationError as exc:
                    raise ConnectionFailed(
                        f"{redact_url(settings.url)} refused the credentials; check the username and password"
                    ) from exc
                except redis.RedisError as exc:
                    raise ConnectionFailed(
                        f"cannot reach {redact_url(settings.url)} ({type(exc).__name__}); check that FalkorDB is running"
                    ) from exc
            else:
                self.cluster = _open_cluster(seeds, settings, common)
                self.db = cluster.falkordb_client(self.cluster)
            self.location = redact_url(settings.url)
        else:
            data_dir = Path(settings.path or default_data_path()).expanduser().resolve()
            self.server = EmbeddedServer(
                data_dir,
                appendfsync=settings.appendfsync,
                timeout_max_ms=settings.server_timeout_max_ms,
                timeout_default_ms=settings.query_timeout_ms,
                open_timeout_s=settings.open_timeout_s,
                keep_alive=settings.server_keep_alive,
                idle_s=settings.server_idle_s,
                idle_min_bytes=int(settings.server_idle_min_mb * 1_000_000),
            )

            def connect(info: ServerInfo) -> Any:
                # Runs under the store's lock: once it returns, this client's named connection
                # is in the pool and no other process's close can stop the server.
                db = falkordb.FalkorDB(unix_socket_path=info.socket, **common)
                db.connection.ping()
                return db

            self.db = self.server.acquire(connect)
            self.location = str(data_dir)
        self.executor = Executor(
            self.db,
            timeout_ms=settings.query_timeout_ms,
            attempts=settings.retry_attempts,
            max_wait_s=settings.retry_max_wait_s,
            recover=self.server.recover if self.server is not None else None,
        )
        self._ready: dict[str, TenantMeta] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._at_exit: Callable[[], None] | None = None
        if self.server is not None:
            self._at_exit = _close_at_exit(self)
            atexit.register(self._at_exit)

    # --- tenants -------------------------------------------------------------------------
    def graph(self, tenant_id: str) -> str:
        return graph_name(self.settings.graph_prefix, tenant_id)

    def exists(self, tenant_id: str) -> bool:
        g = self.graph(tenant_id)
        return bool(self.executor.command("EXISTS", g, "EXISTS", g))

    def list_tenants(self) -> list[str]:
        names: list[Any] = []
        for answer in self.on_every_primary("GRAPH.LIST", "GRAPH.LIST").values():
            names.extend(answer or [])
        out = []
        for n in names:
            name = n.decode() if isinstance(n, bytes) else str(n)
            t = tenant_of(self.settings.graph_prefix, name)
            if t is not None:
                out.append(t)
        return sorted(out)

    def on_every_primary(self, what: str, *args: Any) -> dict[str, Any]:
        """Send a raw keyless server command (GRAPH.LIST, GRAPH.CONFIG, INFO, MODULE LIST) to
        every primary, with the retry policy.

        Returns:
            ``{"host:port": answer}`` per cluster primary; ``{"server": answer}`` otherwise.
        """
        if self.cluster is None:
            return {"server": self.executor.command(what, "server", *args)}
        return self.executor.call(what, "every primary", cluster.on_primaries(self.cluster, *args))

    def meta(self, tenant_id: str) -> TenantMeta:
        """The tenant's recorded metadata, migrating it to the current schema if needed.

        Raises:
            TenantNotFound: the tenant has no graph.
        """
        cached = self._ready.get(tenant_id)
        if cached is not None:
            return cached
        g = self.graph(tenant_id)
        if not self.exists(tenant_id):
            raise TenantNotFound(
                f"tenant {tenant_id!r} does not exist; add a memory to create it, or create it"
                " with Memory.create_tenant() / `falkmem tenants create`"
            )
        rows = self.executor.run(g, query("admin/read_meta"))
        if not rows:
            raise TenantNotFound(f"graph {g!r} exists but is not a falkmem tenant (no metadata)")
        meta = TenantMeta(int(rows[0]["schema_version"]), int(rows[0]["dimension"]), str(rows[0]["embedder"]))
        meta = self._migrate(tenant_id, meta)
        self.wait_for_indexes(tenant_id)
        return meta

    def wait_for_indexes(self, tenant_id: str) -> float:
        """Block until every index of the tenant is OPERATIONAL; return the seconds waited.

        After a restart the server replays its append-only file and then rebuilds the
        indexes in the background; until then a vector query fails ("Invalid arguments").

        Raises:
            ConnectionFailed: the indexes were not ready within ``open_timeout_s``.
        """
        started = time.monotonic()
        g = self.graph(tenant_id)
        while True:
            rows = self.executor.run(g, query("admin/index_status"))
            if all(r["status"] == "OPERATIONAL" for r in rows):
                return time.monotonic() - started
            if time.monotonic() - started > self.settings.open_timeout_s:
                raise ConnectionFailed(
                    f"the indexes of tenant {tenant_id!r} were still being built after"
                    f" {self.settings.open_timeout_s:.0f} s; raise FALKMEM_OPEN_TIMEOUT_S"
                )
            time.sleep(0.05)

    def ensure(self, tenant_id: str, *, dimension: int, embedder: str) -> TenantMeta:
        """Create the tenant if needed (first write) and return its migrated metadata."""
        validate_tenant_id(tenant_id)
        cached = self._ready.get(tenant_id)
        if cached is not None:
            return cached
        with self._lock:
            rows = self.executor.run(
                self.graph(tenant_id),
                query("admin/init_meta"),
                {"dimension": dimension, "embedder": embedder, "now": time.time()},
            )
            r = rows[0]
            meta = TenantMeta(int(r["schema_version"]), int(r["dimension"]), str(r["embedder"]))
            migrated = meta.schema_version < MIGRATIONS[-1].version
            meta = self._migrate(tenant_id, meta)
            # New indexes are built in the background; a vector written while its index is
            # still under construction can be missed by the index (seen here): wait.
            self.wait_for_indexes(tenant_id)
            if migrated and self.server is not None:
                self._compact_log()
            return meta

    def create(self, tenant_id: str, *, dimension: int, embedder: str) -> TenantMeta:
        """Create a tenant explicitly.

        Raises:
            TenantExists: it exists already.
        """
        validate_tenant_id(tenant_id)
        if self.exists(tenant_id):
            raise TenantExists(f"tenant {tenant_id!r} exists already")
        return self.ensure(tenant_id, dimension=dimension, embedder=embedder)

    def drop(self, tenant_id: str) -> bool:
        """Delete a tenant's graph; False when it did not exist."""
        g = self.graph(tenant_id)
        self._ready.pop(tenant_id, None)
        if not self.exists(tenant_id):
            return False
        self.executor.command("GRAPH.DELETE", g, "GRAPH.DELETE", g)
        return True

    def pending_migrations(self, tenant_id: str) -> list[Migration]:
        g = self.graph(tenant_id)
        if not self.exists(tenant_id):
            raise TenantNotFound(f"tenant {tenant_id!r} does not exist")
        rows = self.executor.run(g, query("admin/read_meta"))
        version = int(rows[0]["schema_version"]) if rows else 0
        return [m for m in MIGRATIONS if m.version > version]

    def _migrate(self, tenant_id: str, meta: TenantMeta) -> TenantMeta:
        g = self.graph(tenant_id)
        for m in MIGRATIONS:
            if m.version <= meta.schema_version:
                continue
            try:
                m.apply(
                    self.executor, g, {"dimension": meta.dimension, "ef_runtime": self.settings.ef_runtime}
                )
            except QueryFailed as exc:
                # Two processes migrating at once: the loser finds the index already there.
                if "already" not in str(exc).lower():
                    raise
            self.executor.run(
                g, query("admin/set_schema_version"), {"version": m.version, "now": time.time()}
            )
            meta.schema_version = m.version
            log.debug("migrated graph=%s to version=%d (%s)", g, m.version, m.name)
        self._ready[tenant_id] = meta
        return meta

    def _compact_log(self) -> None:
        """Rewrite the embedded server's append-only file so its base holds the new schema.

        Replaying index creation from the log rebuilds the indexes in the background while
        the replayed writes go on, and FalkorDB then leaves some vectors out of the index
        (measured: 33 of 50 indexed after a restart). With the schema in the RDB base of the
        log, a restart loads the indexes whole before replaying writes.
        """
        import redis

        try:
            self.db.connection.bgrewriteaof()
        except redis.ResponseError:
            pass  # a rewrite is already running or scheduled
        deadline = time.monotonic() + self.settings.open_timeout_s
        while time.monotonic() < deadline:
            info = self.db.connection.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                return
            time.sleep(0.02)

    def forget_cached(self, tenant_id: str) -> None:
        self._ready.pop(tenant_id, None)

    # --- lifecycle ----------------------------------------------------------------------
    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._at_exit is not None:
            atexit.unregister(self._at_exit)
        try:
            self.db.connection.close()  # a cluster client closes every node's connections
            pool = getattr(self.db.connection, "connection_pool", None)
            if pool is not None:
                pool.disconnect()
        finally:
            if self.server is not None:
                self.server.release()


def _close_at_exit(store: Store) -> Callable[[], None]:
    """An ``atexit`` hook that closes ``store`` (a script that never calls close() still
    stops its embedded server on a clean exit); it holds the store weakly."""
    ref = weakref.ref(store)

    def hook() -> None:
        s = ref()
        if s is not None:
            try:
                s.close()
            except Exception as exc:  # pragma: no cover - exiting anyway; the watchdog stops it
                log.debug("closing the store at exit failed: %s", exc)

    return hook


_CLUSTER_PREFIXES = tuple(f"{scheme}://" for scheme in cluster.CLUSTER_SCHEMES)


def _probe_cluster(pool: Any, url: str) -> bool:
    """Whether the one node named by ``url`` is a Redis Cluster node (``INFO cluster``)."""
    import redis

    client = redis.Redis(connection_pool=pool)
    try:
        return cluster.cluster_enabled(client)
    except redis.RedisError as exc:
        raise ConnectionFailed(
            f"cannot reach {redact_url(url)} ({type(exc).__name__}); check that FalkorDB is running"
        ) from exc


def _as_cluster_url(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}+cluster://{rest}"


def _open_cluster(seeds: cluster.ClusterUrl, settings: Settings, common: dict[str, Any]) -> RedisCluster:
    """The cluster client; credentials in the settings win over those in the URL."""
    from redis.exceptions import RedisClusterException, RedisError

    if settings.password is not None or settings.username is not None:
        seeds = cluster.ClusterUrl(
            seeds.seeds,
            seeds.tls,
            settings.username if settings.username is not None else seeds.username,
            settings.password.get_secret_value() if settings.password is not None else seeds.password,
        )
    try:
        return cluster.connect(
            seeds,
            read_from_replicas=settings.read_from_replicas,
            socket_timeout=common["socket_timeout"],
            socket_connect_timeout=common["socket_connect_timeout"],
            client_name=common["client_name"],
        )
    except (RedisError, RedisClusterException) as exc:
        nodes = ", ".join(f"{h}:{p}" for h, p in seeds.seeds)
        raise ConnectionFailed(
            f"no Redis Cluster seed node answered ({nodes}): {type(exc).__name__}; check the URL"
        ) from exc
