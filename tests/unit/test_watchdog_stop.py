"""The watchdog's stop: a server that does not exit on SIGTERM (stuck in a query) is killed
after the grace period instead of lingering with no client for ever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from falkmem.storage.watchdog import Idle, _check, _stop, alive

IGNORES_SIGTERM = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(60)"


def test_a_server_that_ignores_sigterm_is_killed_after_the_grace(tmp_path: Path) -> None:
    p = subprocess.Popen([sys.executable, "-c", IGNORES_SIGTERM], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "up"
    reaper = threading.Thread(target=p.wait, daemon=True)  # reap it as its parent would
    reaper.start()
    t = time.monotonic()
    _stop(tmp_path, p.pid, grace=0.3)
    reaper.join(timeout=5)
    assert p.returncode == -9, p.returncode  # SIGTERM ignored, then SIGKILL
    assert not alive(p.pid)
    assert time.monotonic() - t < 5


def test_a_server_that_exits_on_sigterm_is_not_killed(tmp_path: Path) -> None:
    p = subprocess.Popen([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"],
                         stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert p.stdout is not None and p.stdout.readline().strip() == "up"
    reaper = threading.Thread(target=p.wait, daemon=True)
    reaper.start()
    _stop(tmp_path, p.pid, grace=5.0)
    reaper.join(timeout=5)
    assert p.returncode == -15, p.returncode  # the clean shutdown was enough


def test_a_client_that_came_and_went_between_two_looks_restarts_the_idle_time(tmp_path: Path) -> None:
    """A lingering server's idle time counts from the clients file's stamp (a client's last open
    or close) when that is later than the watchdog's own first look without a client."""
    p = subprocess.Popen([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"],
                         stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert p.stdout is not None and p.stdout.readline().strip() == "up"
    threading.Thread(target=p.wait, daemon=True).start()
    try:
        (tmp_path / "appendonlydir").mkdir()
        (tmp_path / "server.json").write_text(json.dumps({"pid": p.pid, "idle_s": 3, "idle_min_bytes": 0}))
        clients = tmp_path / "falkmem.clients"
        idle = Idle()
        idle.since = time.time() - 10  # no client seen for 10 s: past the 3 s idle time...
        clients.touch()  # ...but one opened and closed the store just now, between two looks
        assert _check(tmp_path, p.pid, idle) is False
        assert alive(p.pid)
        idle.since = time.time() - 10
        os.utime(clients, (time.time() - 10,) * 2)  # the last client left 10 s ago: stop
        assert _check(tmp_path, p.pid, idle) is True
        p.wait(timeout=5)
        assert not alive(p.pid)
    finally:
        p.kill()


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc to see a zombie")
def test_an_exited_process_not_yet_reaped_is_not_alive() -> None:
    """A zombie (exited, its parent has not reaped it) is gone for falkmem, although
    ``kill(pid, 0)`` still succeeds on it: a stopped embedded server is init's zombie until
    init reaps it, which took 1.5-2 s on the build machines, and every close waited for that."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])  # this test is its parent and does not reap it
    try:
        deadline = time.monotonic() + 30
        stat = Path(f"/proc/{p.pid}/stat")
        while b") Z " not in stat.read_bytes():
            assert time.monotonic() < deadline, "the child did not exit"
            time.sleep(0.01)
        os.kill(p.pid, 0)  # no ProcessLookupError: the pid still exists
        assert not alive(p.pid)
    finally:
        p.wait()
    assert not alive(p.pid)
    assert alive(os.getpid())
