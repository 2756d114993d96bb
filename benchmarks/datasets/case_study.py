"""HippoRAG's path-finding case studies (``../shared/data/hipporag/case_study``): one tenant per study.

Each study (``case_study_<study>.json`` + ``case_study_<study>_corpus.json``) has its own corpus
and one question, so each is its own tenant (``case_study-<study>-rules``) and the results are
pooled under one group, ``case_study-rules``, with the study as the question's category.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Dataset, DatasetMissing, TenantData
from .hipporag import load_pair
from .paths import shared_data

FOLDER = "case_study"
"""Folder name under the shared HippoRAG data root."""


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Every study of the folder as a tenant; a folder of one corpus works too."""
    folder = data_dir or shared_data(FOLDER)
    if not folder.is_dir():
        raise DatasetMissing(f"dataset folder {folder} does not exist; put HippoRAG's case studies there "
                             "(<name>_corpus.json and <name>.json) or pass --data-dir")  # fmt: skip
    if not any(folder.rglob("*_corpus.json")):
        raise DatasetMissing(f"no *_corpus.json under {folder}")
    tenants: list[TenantData] = []
    studies: dict[str, Any] = {}
    for corpus in sorted(folder.rglob("*_corpus.json")):
        stem = corpus.name.removesuffix("_corpus.json")
        qfile = corpus.with_name(f"{stem}.json")
        if not qfile.is_file():
            continue
        study = stem.removeprefix("case_study_") or stem
        ts, info = load_pair(corpus, qfile, None, name=f"case_study-{study}".lower(),
                             questions=questions, group="case_study", category=study)  # fmt: skip
        tenants += ts
        studies[study] = info
    if not tenants:
        raise DatasetMissing(f"no <name>.json next to a <name>_corpus.json under {folder}")
    return Dataset(name="case_study", tenants=tenants, info={"folder": str(folder), "studies": studies})
