"""Texts from every dev data set, sampled: what an embedder is checked on.

Five sets, each the texts falkmem would embed for it (memories as the adapters write them,
plus the questions): MuSiQue passages, 2Wiki passages (``hipporag/2wikimultihopqa_corpus_only``,
``title\\ntext`` as the HippoRAG adapter writes a passage), LongMemEval turns, REALTALK turns,
BEAM messages. A sample is seeded, so the same call gives the same texts, and can add each set's
longest texts: those run past the model's 256 tokens and are truncated.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from . import beam, longmemeval, musique, realtalk
from .base import Dataset, DatasetMissing
from .paths import shared_data

SETS = ("musique", "2wiki", "longmemeval", "realtalk", "beam")


def _from_dataset(load: Callable[[], Dataset]) -> list[str]:
    ds = load()
    out = [m.text for t in ds.tenants for m in t.memories] + [q.text for t in ds.tenants for q in t.questions]
    return list(dict.fromkeys(out))  # MuSiQue's two tenants share their passages


def _two_wiki() -> list[str]:
    path = shared_data("2wikimultihopqa_corpus_only") / "2wikimultihopqa_corpus.json"
    if not path.is_file():
        raise DatasetMissing(f"{path} does not exist")
    rows = json.loads(path.read_text())
    return list(
        dict.fromkeys(f"{r['title']}\n{r['text']}" if r.get("title") else str(r["text"]) for r in rows)
    )


_LOADERS: dict[str, Callable[[], list[str]]] = {
    "musique": lambda: _from_dataset(musique.load),
    "2wiki": _two_wiki,
    "longmemeval": lambda: _from_dataset(longmemeval.load),
    "realtalk": lambda: _from_dataset(realtalk.load),
    "beam": lambda: _from_dataset(beam.load),
}


def all_texts(name: str) -> list[str]:
    """Every distinct text of one set, in the data's order.

    Raises:
        DatasetMissing: the set's files are not there.
    """
    return [t for t in _LOADERS[name]() if t.strip()]


def sample_texts(name: str, n: int | None, *, longest: int = 0, seed: int = 7) -> list[str]:
    """``n`` texts of one set drawn at random (all of them when ``n`` is None or larger), plus its
    ``longest`` longest texts (by characters) when the draw missed them.

    Raises:
        DatasetMissing: the set's files are not there.
    """
    texts = all_texts(name)
    drawn = texts if n is None or n >= len(texts) else random.Random(f"{seed}:{name}").sample(texts, n)
    long = sorted(texts, key=len, reverse=True)[:longest]
    return list(dict.fromkeys(drawn + long))
