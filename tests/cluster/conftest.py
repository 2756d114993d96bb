"""Fixtures of the cluster tests: one local Redis Cluster (3 primaries + 1 replica each) per session.

The tests are marked ``cluster`` and skipped unless the run selects them: ``pytest -m cluster``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .local_cluster import LocalCluster


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    expr = str(config.getoption("markexpr") or "")
    if "cluster" in expr and "not cluster" not in expr:
        return
    skip = pytest.mark.skip(reason="starts a local Redis Cluster: run with pytest -m cluster")
    for item in items:
        if item.get_closest_marker("cluster") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def local_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """3 primaries with 1 replica each on free loopback ports; every process is killed at teardown."""
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
