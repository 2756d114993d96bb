"""Dataset adapters: each yields tenants with memories and questions that carry gold memory ids."""

from __future__ import annotations

from pathlib import Path

from . import beam, case_study, jsonl, longmemeval, musique, musique200, realtalk, synthetic
from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData

NAMES = ("synthetic", "musique", "musique200", "longmemeval", "realtalk", "beam", "case_study", "jsonl")
"""Every dataset ``--dataset`` accepts."""


def load(
    name: str,
    *,
    size: int = 1000,
    seed: int = 7,
    questions: int | None = 200,
    data_dir: Path | None = None,
    file: Path | None = None,
    tenants: int | None = None,
) -> Dataset:
    """Load one dataset by name; ``size`` and ``seed`` only shape the synthetic one.

    ``tenants`` keeps the first N tenants (LongMemEval: one per question, ordered so that a
    prefix covers every question type; MuSiQue: ``musique-rules`` first).

    Raises:
        DatasetMissing: its files are not there (the message names the path).
        DatasetInvalid: its files break the format.
    """
    if name == "synthetic":
        ds = synthetic.generate(size, seed=seed, questions=questions or 200)
    elif name == "musique":
        ds = musique.load(data_dir=data_dir, questions=questions)
    elif name == "musique200":
        ds = musique200.load(data_dir=data_dir, questions=questions)
    elif name == "longmemeval":
        ds = longmemeval.load(data_dir=data_dir, questions=questions)
    elif name == "realtalk":
        ds = realtalk.load(data_dir=data_dir, questions=questions)
    elif name == "beam":
        ds = beam.load(data_dir=data_dir, questions=questions)
    elif name == "case_study":
        ds = case_study.load(data_dir=data_dir, questions=questions)
    elif name == "jsonl":
        ds = jsonl.load(file or data_dir, questions=questions)
    else:
        raise ValueError(f"unknown dataset {name!r}; choose from {', '.join(NAMES)}")
    if tenants is not None:
        if tenants < 1:
            raise ValueError("tenants must be at least 1")
        ds.tenants = ds.tenants[:tenants]
    ds.check()
    return ds


__all__ = [
    "NAMES",
    "Dataset",
    "DatasetInvalid",
    "DatasetMissing",
    "MemoryItem",
    "Question",
    "TenantData",
    "load",
]
