"""MuSiQue-200 (``../shared/data/migres/musique_200``): 200 questions over 3,141 pooled passages, no OpenIE.

Laid out like HippoRAG's sets (see its PROVENANCE.md), so the HippoRAG reader loads it: gold =
the ``is_supporting`` paragraphs matched by (title, text); hops from the id prefix (2hop/3hop/4hop).
"""

from __future__ import annotations

from pathlib import Path

from .base import Dataset
from .hipporag import load_folder
from .paths import data_root

FOLDER = ("migres", "musique_200")
"""Path of the folder under the shared data root."""


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """One tenant, ``musique200-rules`` (the offline rule extractor builds the graph)."""
    return load_folder(data_dir or data_root().joinpath(*FOLDER), name="musique200", questions=questions)
