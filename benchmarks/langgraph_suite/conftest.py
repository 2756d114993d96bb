"""Runs LangGraph's store tests (``upstream/``) against ``FalkmemStore``: one embedded FalkorDB
and falkmem's default embedder (MiniLM, ONNX) for the session, a fresh tenant per store, async tests on anyio's pytest
plugin (LangGraph's repos use pytest-asyncio in auto mode), and a small ``mocker`` fixture
(pytest-mock's ``stub`` and ``spy``, on ``unittest.mock``)."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from typing import Any
from unittest import mock

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest

from benchmarks.langgraph_suite import stores
from falkmem import Memory


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> None:
    """Mark coroutine tests for anyio before they are collected (pytest-asyncio's auto mode)."""
    if name.startswith("test") and inspect.iscoroutinefunction(obj):
        pytest.mark.anyio(obj)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def suite_memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    url = os.environ.get("FALKMEM_TEST_URL")
    path = tmp_path_factory.mktemp("lgstore")
    mem = Memory(url=url) if url else Memory(path)  # falkmem's defaults: MiniLM on ONNX Runtime
    stores.MEMORY = mem
    yield mem
    stores.MEMORY = None
    mem.close()


@pytest.fixture(autouse=True)
def _drop_tenants(suite_memory: Memory) -> Iterator[None]:
    yield
    while stores.CREATED:
        suite_memory.drop_tenant(stores.CREATED.pop())


class _Mocker:
    def __init__(self) -> None:
        self._patches: list[Any] = []

    def stub(self, name: str | None = None) -> mock.MagicMock:
        return mock.MagicMock(spec=lambda *args, **kwargs: None, name=name)

    def spy(self, obj: object, name: str) -> mock.MagicMock:
        original = getattr(obj, name)
        patch = mock.patch.object(obj, name, autospec=True, side_effect=original)
        spied: mock.MagicMock = patch.start()
        self._patches.append(patch)
        return spied

    def stopall(self) -> None:
        for p in reversed(self._patches):
            p.stop()
        self._patches.clear()


@pytest.fixture
def mocker() -> Iterator[_Mocker]:
    m = _Mocker()
    yield m
    m.stopall()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "flaky(retries): LangGraph's retry marker (not honoured here)")
    config.addinivalue_line("markers", "asyncio: pytest-asyncio's marker (anyio runs these)")
