"""HippoRAG's path-finding case studies (``../shared/data/hipporag/case_study``), same layout as MuSiQue."""

from __future__ import annotations

from pathlib import Path

from .base import Dataset
from .hipporag import load_folder
from .paths import shared_data

FOLDER = "case_study"
"""Folder name under the shared HippoRAG data root."""


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Tenants ``case_study-rules`` and, when OpenIE results are present, ``case_study-openie``."""
    return load_folder(data_dir or shared_data(FOLDER), name="case_study", questions=questions)
