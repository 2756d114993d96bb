"""Fixtures of the reliability suite: a private embedded store with the fast HashEmbedder.

The suite never touches the session's shared store (``mem`` in ``tests/conftest.py``): the
fault tests kill and restart servers, so each of them gets its own data directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from falkmem import Memory
from falkmem.testing import HashEmbedder

from .figures import FIGURES


class DenseEmbedder:
    """Like HashEmbedder (fast, no model) but dense: each word is a fixed random Gaussian
    vector and a text the normalised sum of its words'.

    HashEmbedder's vectors are sparse (one non-zero per word), and many are orthogonal or
    identical; FalkorDB's HNSW leaves a third of such vectors unreachable (a k = N query
    returned 198 of 300), so "every acknowledged memory is in the vector index" can only be
    checked with dense vectors like a real model's.
    """

    def __init__(self, dimension: int = 384) -> None:
        self._dimension = dimension
        self._cache: dict[str, np.ndarray] = {}

    @property
    def name(self) -> str:
        return f"dense-hash-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def _word(self, w: str) -> np.ndarray:
        v = self._cache.get(w)
        if v is None:
            seed = int.from_bytes(
                hashlib.blake2b(w.encode("utf-8", "replace"), digest_size=8).digest(), "little"
            )
            v = np.random.default_rng(seed).standard_normal(self._dimension)
            if len(self._cache) < 100_000:
                self._cache[w] = v
        return v

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for t in texts:
            v = np.zeros(self._dimension)
            for w in re.findall(r"\w+", t.lower()) or [t]:
                v += self._word(w)
            n = float(np.linalg.norm(v)) or 1.0
            out.append([float(x) for x in v / n])
        return out


@pytest.fixture(scope="session")
def hash_embedder() -> HashEmbedder:
    return HashEmbedder(384)


@pytest.fixture(scope="session")
def rel_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("reliability-store")


@pytest.fixture(scope="session")
def hmem(rel_path: Path, hash_embedder: HashEmbedder) -> Iterator[Memory]:
    """One embedded store shared by the isolation, limits and logs tests (HashEmbedder: fast)."""
    m = Memory(rel_path, embedder=hash_embedder)
    yield m
    m.close()


def server_pid(data_dir: Path) -> int:
    """The pid of the embedded server of ``data_dir`` (from its ``server.json``)."""
    return int(json.loads((data_dir / "server.json").read_text())["pid"])


def server_socket(data_dir: Path) -> str:
    return str(json.loads((data_dir / "server.json").read_text())["socket"])


def kill9(pid: int, timeout: float = 10.0) -> None:
    """SIGKILL a server and wait until it is gone."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    raise AssertionError(f"server pid {pid} still alive {timeout} s after SIGKILL")


def stop_server(data_dir: Path) -> None:
    """Kill a test's private server at teardown (a test that failed may leave it running)."""
    try:
        pid = server_pid(data_dir)
    except (OSError, ValueError, KeyError):
        return
    try:
        kill9(pid)
    except (ProcessLookupError, AssertionError):
        pass


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for test, values in FIGURES.items():
        terminalreporter.write_line(f"{test}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    out = os.environ.get("FALKMEM_RELIABILITY_FIGURES")
    if out:
        Path(out).write_text(json.dumps(FIGURES, indent=2, sort_keys=True, default=str))
