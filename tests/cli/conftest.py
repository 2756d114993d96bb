"""CLI fixtures: a CliRunner against the session's real embedded store, with a fast test embedder."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from falkmem import Memory
from falkmem.cli.app import cli
from falkmem.testing import HashEmbedder

Invoke = Callable[..., Result]


@pytest.fixture(scope="session")
def hash_embedder() -> HashEmbedder:
    """384-d like MiniLM, so tenants made by either can be read by the other."""
    return HashEmbedder(384)


@pytest.fixture
def base_args(mem: Memory, store_path: Path) -> list[str]:
    """Points the CLI at the same server as the session's ``mem`` (which keeps it running)."""
    url = os.environ.get("FALKMEM_TEST_URL")
    return ["--url", url] if url else ["--path", str(store_path)]


@pytest.fixture
def invoke(base_args: list[str], hash_embedder: HashEmbedder) -> Invoke:
    """``invoke("tenants", "list", "--json")`` → click Result (stdout and stderr apart)."""

    def run(
        *args: str, embedder: Any = hash_embedder, env: dict[str, str] | None = None, input: str | None = None
    ) -> Result:
        obj = {"embedder": embedder} if embedder is not None else None
        return CliRunner().invoke(
            cli, [*base_args, *args], obj=obj, env=env, input=input, catch_exceptions=False
        )

    return run


@pytest.fixture
def tenants_to_drop(mem: Memory) -> Iterator[list[str]]:
    """Tenants a test creates besides its own; dropped at teardown."""
    made: list[str] = []
    yield made
    for t in made:
        mem.drop_tenant(t)
