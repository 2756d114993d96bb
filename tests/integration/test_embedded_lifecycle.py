"""The embedded server's life with real processes (issue 15 items 3-5, issue 12 items 9 and 13).

- it restarts itself from its append-only file when its server dies (kill -9), once for all
  concurrent callers, and refuses to restart a server that crashes again on replay;
- it leaves no server running once the last client process is gone (closed, exited without
  close(), or killed), unless a long-lived server was asked for;
- its files are private to the user; a stale socket with a reused pid does not stall open;
  another process's close cannot stop a server that is being opened.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from falkmem import ConnectionFailed, Memory
from falkmem.cli.app import cli
from falkmem.testing import HashEmbedder
from tests.reliability.figures import record

ROOT = Path(__file__).resolve().parents[2]


def server_pids(data_dir: Path) -> set[int]:
    """Every redis-server process serving ``data_dir`` (the server runs with it as its cwd)."""
    want = data_dir.resolve()
    out: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if "redis-server" not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
            if Path(os.readlink(entry / "cwd")) == want:
                out.add(int(entry.name))
        except OSError:
            continue
    return out


def recorded_pid(data_dir: Path) -> int:
    return int(json.loads((data_dir / "server.json").read_text())["pid"])


def kill9(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.005)
    raise AssertionError(f"pid {pid} survived SIGKILL")


def wait_no_server(data_dir: Path, timeout: float = 10.0) -> float:
    started = time.monotonic()
    while server_pids(data_dir):
        if time.monotonic() - started > timeout:
            raise AssertionError(
                f"server of {data_dir} still running after {timeout} s: {server_pids(data_dir)}"
            )
        time.sleep(0.05)
    return time.monotonic() - started


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "store"
    yield d
    for pid in server_pids(d):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def open_mem(d: Path, **kw: Any) -> Memory:
    return Memory(d, embedder=HashEmbedder(64), extractor="none", **kw)


# --- issue 12 item 9: private files ------------------------------------------------------------


def test_store_directory_and_files_are_private(data_dir: Path) -> None:
    old = os.umask(0o022)
    try:
        with open_mem(data_dir, appendfsync="always") as m:
            m.tenant("perm").add("A secret memory text.", id="p1")
            m._engine.store.db.connection.bgsave()
            time.sleep(0.5)
    finally:
        os.umask(old)
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    files = [p for p in data_dir.rglob("*") if p.is_file()]
    assert any(p.name.endswith(".aof") for p in files) and any(p.name == "server.log" for p in files)
    loose = {str(p.relative_to(data_dir)): oct(stat.S_IMODE(p.stat().st_mode)) for p in files
             if stat.S_IMODE(p.stat().st_mode) & 0o077}  # fmt: skip
    assert not loose, f"readable by others: {loose}"
    for p in data_dir.rglob("*"):
        if p.is_dir():
            assert stat.S_IMODE(p.stat().st_mode) & 0o077 == 0, p


# --- issue 15 item 3: recovery ------------------------------------------------------------------


def test_kill9_while_idle_next_search_succeeds(data_dir: Path) -> None:
    """Five kills in a row; each time the next call restarts the server and answers."""
    times: list[float] = []
    with open_mem(data_dir, appendfsync="always") as m:
        t = m.tenant("idle")
        t.add_many([{"id": f"i{i}", "text": f"Idle memory number {i} about canaries."} for i in range(50)])
        for _ in range(5):
            pid = recorded_pid(data_dir)
            kill9(pid)
            started = time.perf_counter()
            hits = t.search("Idle memory number 7 about canaries.", k=5)
            times.append(time.perf_counter() - started)
            assert "i7" in hits.ids
            assert recorded_pid(data_dir) != pid and t.count() == 50
    record("restart_after_kill9", runs=len(times), ms=[round(x * 1000) for x in times],
           max_ms=round(max(times) * 1000))  # fmt: skip
    assert max(times) < 30


class _Writer(threading.Thread):
    def __init__(self, mem: Memory, n: int) -> None:
        super().__init__(daemon=True)
        self.t = mem.tenant("busy")
        self.records = [
            {"id": f"w{i:05d}", "text": f"Written memory {i} of the busy writer."} for i in range(n)
        ]
        self.acked: list[str] = []
        self.error: BaseException | None = None

    def progress(self, done: int, total: int) -> None:
        self.acked = [r["id"] for r in self.records[:done]]

    def run(self) -> None:
        try:
            self.t.add_many(self.records, batch_size=10, on_progress=self.progress)
        except BaseException as exc:
            self.error = exc


def test_kill9_during_add_many_keeps_acknowledged_writes(data_dir: Path) -> None:
    with open_mem(data_dir, appendfsync="always", retry_attempts=8) as m:
        m.tenant("busy").add("warm up", id="warm")
        w = _Writer(m, 2000)
        pid = recorded_pid(data_dir)
        w.start()
        deadline = time.monotonic() + 60
        while len(w.acked) < 200 and time.monotonic() < deadline:
            time.sleep(0.0005)
        acked_at_kill = set(w.acked)
        assert w.is_alive() and len(acked_at_kill) < 2000, "the writer finished before the kill"
        kill9(pid)
        w.join(180)
        assert not w.is_alive()
        assert w.error is None, f"add_many did not survive the restart: {w.error!r}"
        want = [r["id"] for r in w.records]
        ids = {h.id for i in range(0, len(want), 500) for h in m.tenant("busy").get_many(want[i : i + 500])}
        assert acked_at_kill <= ids and len(ids) == 2000
        assert m.tenant("busy").count() == 2001
        assert recorded_pid(data_dir) != pid
    record("kill9_during_add_many_auto_restart", acked_at_kill=len(acked_at_kill), after=2000, lost=0)


def test_concurrent_callers_wait_for_one_restart(data_dir: Path) -> None:
    with open_mem(data_dir) as m:
        t = m.tenant("many")
        t.add("Concurrent callers share one restart.", id="c1")
        kill9(recorded_pid(data_dir))
        errors: list[BaseException] = []

        def call() -> None:
            try:
                assert "c1" in t.search("Concurrent callers share one restart.", k=3).ids
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=call) for _ in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert not errors, errors
        log = (data_dir / "server.log").read_text()
        assert log.count("Server initialized") == 2, "one start and exactly one restart"


_SEARCHER = textwrap.dedent(
    """
    import sys
    from falkmem import Memory
    from falkmem.testing import HashEmbedder
    m = Memory(sys.argv[1], embedder=HashEmbedder(64), extractor="none")
    t = m.tenant("many")
    print("open", flush=True)
    sys.stdin.readline()
    print("found" if "c1" in t.search("Concurrent callers share one restart.", k=3).ids else "missing", flush=True)
    m.close()
    """
)


def test_processes_wait_for_one_restart(data_dir: Path) -> None:
    """Three processes find the server gone at the same moment: one restarts it, the others
    wait on the store's lock and use that server."""
    with open_mem(data_dir) as m:
        m.tenant("many").add("Concurrent callers share one restart.", id="c1")
        procs = [subprocess.Popen([sys.executable, "-c", _SEARCHER, str(data_dir)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, cwd=ROOT) for _ in range(3)]  # fmt: skip
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "open"
        kill9(recorded_pid(data_dir))
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "found"
            p.wait(60)
        assert m.tenant("many").count() == 1
    log = (data_dir / "server.log").read_text()
    assert log.count("Server initialized") == 2, "one start and exactly one restart"


_POISON_TENANT = "poison"


def _poison_aof(data_dir: Path) -> Path:
    """Append to the AOF a write that crashes FalkorDB (a 5,000-byte key under the unique
    constraint, which falkmem's caps never send) as a poison write would be."""
    (found,) = (data_dir / "appendonlydir").glob("*.manifest")
    manifest = found.read_text().split("\n")
    incr = [ln.split()[1] for ln in manifest if " type i" in ln]
    target = data_dir / "appendonlydir" / incr[-1]
    query = "MERGE (:Entity {key: '" + "p" * 5000 + "'})"
    args = ["GRAPH.QUERY", f"falkmem:{_POISON_TENANT}", query]
    resp = f"*{len(args)}\r\n" + "".join(f"${len(a.encode())}\r\n{a}\r\n" for a in args)
    with target.open("ab") as f:
        f.write(resp.encode())
    return target


def test_server_crashing_on_replay_is_reported_not_restarted_in_a_loop(data_dir: Path) -> None:
    m = open_mem(data_dir, appendfsync="always")
    try:
        m.tenant(_POISON_TENANT).add("Before the poison.", id="b1")
        pid = recorded_pid(data_dir)
        kill9(pid)
        target = _poison_aof(data_dir)
        with pytest.raises(ConnectionFailed) as err:
            m.tenant(_POISON_TENANT).count()
        msg = str(err.value)
        assert "crashed by signal 11" in msg, msg  # it crashed (segfault) on replay, not a parse error
        record("poison_replay", message=msg[:160] + "...")
        assert target.name in msg and "replay" in msg and "redis-check-aof" in msg, msg
        starts = (data_dir / "server.log").read_text().count("Server initialized")
        for _ in range(3):  # neither later calls nor a new open start it again
            with pytest.raises(ConnectionFailed, match="replay"):
                m.tenant(_POISON_TENANT).count()
        with pytest.raises(ConnectionFailed, match="replay"):
            open_mem(data_dir)
        assert (data_dir / "server.log").read_text().count("Server initialized") == starts
        assert not server_pids(data_dir)
    finally:
        m.close()


# --- issue 12 item 13 ------------------------------------------------------------------------------


def test_stale_socket_and_reused_pid_do_not_stall_open(data_dir: Path) -> None:
    with open_mem(data_dir) as m:
        m.tenant("stale").add("Survives a crash with a stale socket.", id="s1")
        sock = json.loads((data_dir / "server.json").read_text())["socket"]
    # The server crashed: its socket file stays, and its pid now belongs to another process.
    with open_mem(data_dir) as m:
        kill9(recorded_pid(data_dir))
    dummy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        state = json.loads((data_dir / "server.json").read_text())
        state["pid"] = dummy.pid
        (data_dir / "server.json").write_text(json.dumps(state))
        assert Path(sock).exists()
        started = time.monotonic()
        with open_mem(data_dir, open_timeout_s=60) as m:
            assert m.tenant("stale").get("s1").text == "Survives a crash with a stale socket."
        assert time.monotonic() - started < 15
        assert dummy.poll() is None, "falkmem killed the process that took the pid"
    finally:
        dummy.kill()
        dummy.wait()


_HOLDER = textwrap.dedent(
    """
    import sys
    from falkmem import Memory
    from falkmem.testing import HashEmbedder
    m = Memory(sys.argv[1], embedder=HashEmbedder(64), extractor="none")
    m.tenant("race").add("held", id="h1")
    print("open", flush=True)
    sys.stdin.readline()
    m.close()
    print("closed", flush=True)
    """
)


def test_close_elsewhere_cannot_stop_a_server_being_opened(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process B closes (the last client) while this process is between taking the server and
    connecting to it: the server must stay up for this process."""
    b = subprocess.Popen([sys.executable, "-c", _HOLDER, str(data_dir)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert b.stdout is not None and b.stdin is not None
    assert b.stdout.readline().strip() == "open"
    pid = recorded_pid(data_dir)
    import falkordb

    real = falkordb.FalkorDB

    def slow_connect(*args: Any, **kwargs: Any) -> Any:
        assert b.stdin is not None
        b.stdin.write("close\n")
        b.stdin.flush()
        time.sleep(2.0)  # B's close runs now (or waits for our lock)
        return real(*args, **kwargs)

    monkeypatch.setattr(falkordb, "FalkorDB", slow_connect)
    m = open_mem(data_dir)
    monkeypatch.setattr(falkordb, "FalkorDB", real)
    try:
        assert b.stdout.readline().strip() == "closed"
        b.wait(30)
        assert server_pids(data_dir) == {pid}, "the server was stopped under an opening client"
        assert m.tenant("race").count() == 1
        assert recorded_pid(data_dir) == pid
    finally:
        m.close()
    wait_no_server(data_dir)


# --- issue 15 item 4: no orphaned servers -------------------------------------------------------------

_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from falkmem import Memory
    from falkmem.testing import HashEmbedder
    path, mode = sys.argv[1], sys.argv[2]
    m = Memory(path, embedder=HashEmbedder(64), extractor="none", appendfsync="always")
    t = m.tenant("script")
    t.add_many([{"id": f"x{i}", "text": f"Script memory {i}."} for i in range(100)])
    print("written", t.count(), flush=True)
    if mode == "exception":
        raise SystemExit("boom")
    if mode == "sigkill":
        time.sleep(300)
    """
)


@pytest.mark.parametrize("mode", ["exit", "exception", "sigkill"])
def test_client_gone_without_close_leaves_no_server(data_dir: Path, mode: str) -> None:
    p = subprocess.Popen([sys.executable, "-c", _SCRIPT, str(data_dir), mode], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "written 100"
    if mode == "sigkill":
        assert server_pids(data_dir)
        p.kill()
    p.wait(60)
    gone = wait_no_server(data_dir, timeout=10)
    record(f"no_orphan_{mode}", server_gone_after_s=round(gone, 2))
    with open_mem(data_dir) as m:
        assert m.tenant("script").count() == 100
        assert m.tenant("script").get("x42").text == "Script memory 42."
    wait_no_server(data_dir)


def test_keep_alive_server_and_server_cli(data_dir: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["--path", str(data_dir), "server", "start"])
    assert out.exit_code == 0, out.output
    pid = recorded_pid(data_dir)
    status = runner.invoke(cli, ["--path", str(data_dir), "server", "status", "--json"])
    assert status.exit_code == 0, status.output
    info = json.loads(status.output)
    assert info["running"] is True and info["pid"] == pid and info["keep_alive"] is True
    with open_mem(data_dir) as m:
        m.tenant("warm").add("Kept warm.", id="k1")
        kill9(pid)  # a crash of a long-lived server: the restarted one is long-lived too
        assert m.tenant("warm").count() == 1
        pid = recorded_pid(data_dir)
    time.sleep(3)  # past the watchdog's period: a long-lived server stays without clients
    assert server_pids(data_dir) == {pid}
    assert json.loads((data_dir / "server.json").read_text())["keep_alive"] is True
    stop = runner.invoke(cli, ["--path", str(data_dir), "server", "stop"])
    assert stop.exit_code == 0, stop.output
    wait_no_server(data_dir, timeout=10)
    status = runner.invoke(cli, ["--path", str(data_dir), "server", "status", "--json"])
    assert json.loads(status.output)["running"] is False
    with open_mem(data_dir) as m:
        assert m.tenant("warm").count() == 1
    wait_no_server(data_dir)


# --- issue 15 item 5: doctor -----------------------------------------------------------------------


def _doctor(data_dir: Path) -> dict[str, dict[str, str]]:
    out = CliRunner().invoke(
        cli, ["--path", str(data_dir), "doctor", "--json"], obj={"embedder": HashEmbedder(64)}
    )
    assert out.output, out
    return {c["name"]: c for c in json.loads(out.output)["checks"]}


def test_doctor_reports_a_server_crash_with_its_time(data_dir: Path) -> None:
    with open_mem(data_dir) as m:
        m.tenant("crash").add("Before the crash.", id="c1")
        checks = _doctor(data_dir)
        assert checks["server-log"]["status"] == "ok", checks["server-log"]
        pid = recorded_pid(data_dir)
        os.kill(pid, signal.SIGSEGV)  # the server's crash handler writes its report to server.log
        deadline = time.monotonic() + 30
        while pid in server_pids(data_dir) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pid not in server_pids(data_dir), "the crashed server had not exited after 30 s"
        time.sleep(0.2)  # the crash happened before the next call: that call is retried
        assert m.tenant("crash").count() == 1  # restarted by the next call
        checks = _doctor(data_dir)
    crash = checks["server-log"]
    assert crash["status"] == "warn" and "crashed" in crash["detail"] and "signal 11" in crash["detail"], (
        crash
    )
    log = (data_dir / "server.log").read_text()
    when = next(ln for ln in log.splitlines() if "crashed by signal" in ln).split(" ", 1)[1][:20]
    assert when in crash["detail"], (when, crash["detail"])


def test_doctor_reports_an_orphaned_server(data_dir: Path) -> None:
    from falkmem.storage.embedded import binaries

    with open_mem(data_dir) as m:
        m.tenant("orphan").add("One memory.", id="o1")
        checks = _doctor(data_dir)
        assert checks["orphans"]["status"] == "ok", checks["orphans"]
        # A server of this directory that the store does not know about (left by a crash of an
        # older falkmem, or started by hand).
        server, _module = binaries()
        stray = subprocess.Popen([str(server), "--port", "0", "--unixsocket", str(data_dir / "stray.sock"),
                                  "--save", "", "--appendonly", "no"], cwd=data_dir,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while stray.pid not in server_pids(data_dir) and time.monotonic() < deadline:
                time.sleep(0.05)
            checks = _doctor(data_dir)
            assert checks["orphans"]["status"] == "warn", checks["orphans"]
            assert str(stray.pid) in checks["orphans"]["detail"]
        finally:
            stray.kill()
            stray.wait()


def test_server_of_a_deleted_store_does_not_outlive_it(data_dir: Path) -> None:
    """A store directory removed under a server whose client died (a test's temporary folder)."""
    import shutil

    p = subprocess.Popen([sys.executable, "-c", _SCRIPT, str(data_dir), "sigkill"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert p.stdout is not None and p.stdout.readline().strip() == "written 100"
    pid = recorded_pid(data_dir)
    p.kill()
    p.wait(60)
    shutil.rmtree(data_dir, ignore_errors=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    raise AssertionError("the server of a deleted store kept running")


def test_a_call_that_crashes_the_server_is_not_retried(data_dir: Path) -> None:
    """A query that segfaults the server restarts it once and fails with a clear error; it is
    not resent (resending it would crash the server again, once per retry attempt)."""
    from falkmem.storage.embedded import ServerCrashed
    from tests.helpers import test_query

    with open_mem(data_dir, retry_attempts=5) as m:
        t = m.tenant("crasher")
        t.add("Before the crash.", id="c1")
        with pytest.raises(ServerCrashed) as err:
            m._engine.store.executor.run(t.graph, test_query("merge_entity_key"), {"key": "k" * 5000})
        assert "not retried" in str(err.value) and "signal 11" in str(err.value), err.value
        log = (data_dir / "server.log").read_text()
        assert log.count("crashed by signal") == 1 and log.count("Server initialized") == 2
        assert t.count() == 1  # the restarted server answers
