"""HippoRAG's MuSiQue subset (``../shared/data/hipporag/musique_train_100``), with and without its OpenIE triples."""

from __future__ import annotations

from pathlib import Path

from .base import Dataset
from .hipporag import load_folder
from .paths import shared_data

FOLDER = "musique_train_100"
"""Folder name under the shared HippoRAG data root."""


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Tenants ``musique-rules`` (offline extractor) and ``musique-openie`` (OpenIE triples given)."""
    return load_folder(data_dir or shared_data(FOLDER), name="musique", questions=questions)
