"""Stops an embedded server once no client process uses its store (issue 15: no orphans).

Every process that has the store open holds a shared ``flock`` on ``<dir>/falkmem.clients``;
the kernel drops it when the process exits, however it exits (``close()``, an exception,
``os._exit``, SIGKILL). This watchdog, started beside each server that is not long-lived,
checks every ``period`` seconds: when it can take that file exclusively (so no client is
left) while holding the store's lifecycle lock ``<dir>/falkmem.lock`` (so no process is
opening the store right now), it stops the server with SIGTERM (a clean shutdown: the
append-only file is flushed) and exits. It also exits when its server is gone, or when the
store's state names another server.

A store whose append-only files hold at least ``idle_min_bytes`` (recorded in the state file
with ``idle_s``) is stopped only once it has had no client for ``idle_s`` seconds: loading it
again would cost the next process seconds to minutes (the HNSW index is rebuilt on every
load), and a process that opens it in the meantime attaches to the running server. That time
counts from the later of the watchdog's first look without a client and the clients file's
stamp, which every client renews when it opens and closes the store: a client that came and
went between two looks restarts it too.

It runs as a script (``python -I -S watchdog.py DIR PID [PERIOD]``, which forks and returns at once) and imports only the
standard library, so it starts in milliseconds and holds no client state of its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sys
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs; a zombie (exited, not yet reaped) does not.

    A daemonized server's parent is init, and ``kill(pid, 0)`` succeeds on a zombie until init
    reaps it: a microVM's init here took 1.5-2 s after the server had exited, and an init that
    never reaps (a container whose PID 1 is a plain program) would keep it for ever. Waiting
    for that after a shutdown made every close of the store ~1.9 s (issue 50).
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it exists; /proc says whether it runs
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rpartition(b")")[2].split()[:1]  # the field after "(comm)"
    except FileNotFoundError:
        return not os.path.isdir("/proc/self")  # no /proc here: trust kill(); else it is gone
    except OSError:
        return True
    return state not in ([b"Z"], [b"X"])


def _state(data_dir: Path) -> dict[str, object] | None:
    try:
        raw = json.loads((data_dir / "server.json").read_text())
    except (OSError, ValueError):
        return None
    return raw if isinstance(raw, dict) else None


def _try_lock(path: Path) -> int | None:
    """A descriptor holding ``path`` exclusively, or None when someone holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def data_bytes(data_dir: Path) -> int:
    """Bytes of the store's append-only files: what its server loads when it starts."""
    total = 0
    try:
        for entry in os.scandir(data_dir / "appendonlydir"):
            if entry.is_file():
                total += entry.stat().st_size
    except OSError:
        pass
    return total


def _last_client(data_dir: Path) -> float:
    """When (wall clock) a client last opened or closed the store: the clients file's stamp."""
    try:
        return (data_dir / "falkmem.clients").stat().st_mtime
    except OSError:
        return 0.0


def idle_wait(state: dict[str, object] | None, data_dir: Path) -> float:
    """How long a server without clients stays up (0: stop it now), from the state file."""
    if not state:
        return 0.0
    raw_wait, raw_floor = state.get("idle_s"), state.get("idle_min_bytes")
    wait = float(raw_wait) if isinstance(raw_wait, int | float) else 0.0
    floor = int(raw_floor) if isinstance(raw_floor, int | float) else 0
    return wait if wait > 0 and data_bytes(data_dir) >= floor else 0.0


STOP_GRACE_S = 120.0
"""How long a server has to exit after SIGTERM before it is killed: a server stuck in a query
(an engine hang) never finishes its shutdown, and with no client left nothing would stop it.
Its writes are in the append-only file already (written every second, in the page cache even
when not yet synced), so the kill loses none."""


def _stop(data_dir: Path, pid: int, grace: float = STOP_GRACE_S) -> None:
    os.kill(pid, signal.SIGTERM)  # redis: a clean shutdown (flushes the AOF)
    deadline = time.monotonic() + grace
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    if alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
    st = _state(data_dir)
    if st is not None and st.get("pid") == pid and not alive(pid):
        with contextlib.suppress(FileNotFoundError):
            (data_dir / "server.json").unlink()


class Idle:
    """Since when (wall clock) the watchdog has seen no client (None: it saw one at its last
    look)."""

    __slots__ = ("since",)

    def __init__(self) -> None:
        self.since: float | None = None


def watch(data_dir: Path, pid: int, period: float) -> int:
    with contextlib.suppress(OSError):
        (data_dir / "watchdog.pid").write_text(str(os.getpid()))
    idle = Idle()
    while True:
        time.sleep(period)
        if not alive(pid):
            return 0
        if not data_dir.is_dir():  # the store was deleted under its server: nothing to keep
            os.kill(pid, signal.SIGKILL)  # (SIGTERM would refuse to exit: its final save fails)
            return 0
        try:
            if _check(data_dir, pid, idle):
                return 0
        except OSError:
            continue  # e.g. the directory is being removed: look again next period


def _check(data_dir: Path, pid: int, idle: Idle | None = None) -> bool:
    """One look; True when the watchdog is done (the server was stopped, or is another's)."""
    st = _state(data_dir)
    if st is not None and st.get("pid") != pid:
        return True  # another server owns the store now
    if st is not None and st.get("keep_alive"):
        return False  # a long-lived server: `falkmem server stop` stops it
    main = _try_lock(data_dir / "falkmem.lock")
    if main is None:
        return False  # someone is opening, restarting or closing the store
    try:
        clients = _try_lock(data_dir / "falkmem.clients")
        if clients is None:
            if idle is not None:
                idle.since = None
            return False
        os.close(clients)
        st = _state(data_dir)
        if st is not None and st.get("keep_alive"):
            return False
        wait = idle_wait(st, data_dir)
        if wait > 0 and idle is not None:
            now = time.time()
            if idle.since is None:
                idle.since = now
            # a client that opened and closed the store between two looks stamped the file
            idle.since = max(idle.since, _last_client(data_dir))
            if now - idle.since < wait:
                return False
        _stop(data_dir, pid)
        return True
    finally:
        os.close(main)


def main(argv: list[str]) -> int:
    data_dir, pid = Path(argv[1]), int(argv[2])
    period = float(argv[3]) if len(argv) > 3 else 1.0
    if os.fork():  # the starter waits for this parent only: the watchdog is nobody's zombie
        return 0
    os.setsid()
    return watch(data_dir, pid, period)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
