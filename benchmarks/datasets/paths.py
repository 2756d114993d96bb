"""Where shared datasets live: ``<repo>/../shared/data/hipporag`` (``FALKMEM_BENCH_DATA`` overrides)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_data(name: str) -> Path:
    """The folder of one HippoRAG dataset."""
    base = os.environ.get("FALKMEM_BENCH_DATA")
    root = Path(base) if base else REPO_ROOT.parent / "shared" / "data" / "hipporag"
    return root / name
