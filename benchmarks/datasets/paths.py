"""Where shared datasets live: ``<repo>/../shared/data`` (``FALKMEM_BENCH_DATA`` moves the HippoRAG root)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def data_root() -> Path:
    """The shared data folder: ``FALKMEM_BENCH_ROOT``, else ``<repo>/../shared/data``."""
    base = os.environ.get("FALKMEM_BENCH_ROOT")
    return Path(base) if base else REPO_ROOT.parent / "shared" / "data"


def shared_data(name: str) -> Path:
    """The folder of one HippoRAG dataset (``FALKMEM_BENCH_DATA`` overrides the HippoRAG root)."""
    base = os.environ.get("FALKMEM_BENCH_DATA")
    root = Path(base) if base else data_root() / "hipporag"
    return root / name
