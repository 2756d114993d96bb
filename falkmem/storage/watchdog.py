"""Stops an embedded server once no client process uses its store (issue 15: no orphans).

Every process that has the store open holds a shared ``flock`` on ``<dir>/falkmem.clients``;
the kernel drops it when the process exits, however it exits (``close()``, an exception,
``os._exit``, SIGKILL). This watchdog, started beside each server that is not long-lived,
checks every ``period`` seconds: when it can take that file exclusively (so no client is
left) while holding the store's lifecycle lock ``<dir>/falkmem.lock`` (so no process is
opening the store right now), it stops the server with SIGTERM (a clean shutdown: the
append-only file is flushed) and exits. It also exits when its server is gone, or when the
store's state names another server.

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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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


def _stop(data_dir: Path, pid: int) -> None:
    os.kill(pid, signal.SIGTERM)  # redis: a clean shutdown (flushes the AOF, saves the RDB)
    deadline = time.monotonic() + 600
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    st = _state(data_dir)
    if st is not None and st.get("pid") == pid and not _alive(pid):
        with contextlib.suppress(FileNotFoundError):
            (data_dir / "server.json").unlink()


def watch(data_dir: Path, pid: int, period: float) -> int:
    with contextlib.suppress(OSError):
        (data_dir / "watchdog.pid").write_text(str(os.getpid()))
    while True:
        time.sleep(period)
        if not _alive(pid):
            return 0
        if not data_dir.is_dir():  # the store was deleted under its server: nothing to keep
            os.kill(pid, signal.SIGKILL)  # (SIGTERM would refuse to exit: its final save fails)
            return 0
        try:
            if _check(data_dir, pid):
                return 0
        except OSError:
            continue  # e.g. the directory is being removed: look again next period


def _check(data_dir: Path, pid: int) -> bool:
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
            return False
        os.close(clients)
        st = _state(data_dir)
        if st is not None and st.get("keep_alive"):
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
