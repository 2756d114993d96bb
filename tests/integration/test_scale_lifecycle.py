"""What a process pays to open a large embedded store (issue 25 item 4), with real processes.

- a large store's server outlives its last client by ``server_idle_s``, and the next process
  attaches to it (same server, no reload) instead of loading the data again; it stops once
  that time has passed with no client, also when the client exited without ``close()``;
- a small store's server still stops with its last client;
- no RDB snapshot is written: the append-only file is the store's only persistence.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from falkmem import Memory
from falkmem.storage.watchdog import data_bytes, idle_wait
from falkmem.testing import HashEmbedder
from tests.integration.test_embedded_lifecycle import data_dir, recorded_pid, server_pids, wait_no_server

__all__ = ["data_dir"]  # the lifecycle tests' store folder, whose servers are killed after each test

ROOT = Path(__file__).resolve().parents[2]


def _open(d: Path, **kw: Any) -> Memory:
    return Memory(d, embedder=HashEmbedder(64), extractor="none", **kw)


def test_a_large_store_lingers_and_the_next_process_attaches(data_dir: Path) -> None:
    with _open(data_dir, server_idle_s=3, server_idle_min_mb=0) as m:
        m.tenant("a").add_many([{"id": f"m{i}", "text": f"Memory number {i}."} for i in range(30)])
        pid = recorded_pid(data_dir)
    assert pid in server_pids(data_dir)  # closed, but kept: loading it again would cost the next process
    script = (
        "import sys, json; from falkmem import Memory; from falkmem.testing import HashEmbedder\n"
        "m = Memory(sys.argv[1], embedder=HashEmbedder(64), extractor='none', server_idle_s=3, server_idle_min_mb=0)\n"
        "print(json.load(open(sys.argv[1] + '/server.json'))['pid'], m.tenant('a').count())\n"
        "m.close()\n"
    )
    before = time.time()
    out = subprocess.run([sys.executable, "-c", script, str(data_dir)], capture_output=True, text=True,
                         cwd=ROOT, check=True, timeout=120)  # fmt: skip
    assert out.stdout.split() == [str(pid), "30"]  # the same server, with the data loaded
    assert (data_dir / "falkmem.clients").stat().st_mtime >= before - 1  # its open and close are stamped
    gone = wait_no_server(data_dir, timeout=20)
    assert gone >= 1.5  # stopped after the idle time, not at the script's close
    assert not list(data_dir.glob("*.rdb"))  # the append-only file is the only persistence
    with _open(data_dir, server_idle_s=0) as m:
        assert m.tenant("a").count() == 30
    wait_no_server(data_dir, timeout=10)  # server_idle_s=0: stops with its last client


def test_a_small_store_stops_with_its_last_client(data_dir: Path) -> None:
    with _open(data_dir, server_idle_s=600, server_idle_min_mb=64) as m:
        m.tenant("a").add("One small memory.", id="x")
        assert data_bytes(data_dir) < 64_000_000
    wait_no_server(data_dir, timeout=10)


def test_a_lingering_server_stops_after_a_client_dies(data_dir: Path) -> None:
    script = (
        "import sys, os; from falkmem import Memory; from falkmem.testing import HashEmbedder\n"
        "m = Memory(sys.argv[1], embedder=HashEmbedder(64), extractor='none', server_idle_s=2, server_idle_min_mb=0)\n"
        "m.tenant('a').add('Killed before close.', id='k')\n"
        "print('written', flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    p = subprocess.run([sys.executable, "-c", script, str(data_dir)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)  # fmt: skip
    assert p.stdout.strip() == "written"
    pid = recorded_pid(data_dir)
    assert pid in server_pids(data_dir)
    wait_no_server(data_dir, timeout=20)  # the watchdog waits the idle time, then stops it


def test_idle_wait_reads_the_state_and_the_files(tmp_path: Path) -> None:
    (tmp_path / "appendonlydir").mkdir()
    (tmp_path / "appendonlydir" / "x.aof").write_bytes(b"0" * 1000)
    assert data_bytes(tmp_path) == 1000
    assert idle_wait({"idle_s": 30, "idle_min_bytes": 1000}, tmp_path) == 30
    assert idle_wait({"idle_s": 30, "idle_min_bytes": 1001}, tmp_path) == 0
    assert idle_wait({"idle_s": 0, "idle_min_bytes": 0}, tmp_path) == 0
    assert idle_wait({"keep_alive": True}, tmp_path) == 0  # a state written before idle_s existed
    assert idle_wait(None, tmp_path) == 0
