"""Near-duplicate detection over embeddings (no LLM): cosine similarity, blocked, union-find."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Candidate", "duplicate_pairs", "group"]

_NUMBER = re.compile(r"\d+(?:[.:,]\d+)*")
_BLOCK = 1024


@dataclass(frozen=True, slots=True)
class Candidate:
    """An active memory in the scan, oldest first (the first of a group is its canonical)."""

    id: str
    text: str
    embedding: Sequence[float]


def _numbers(text: str) -> tuple[str, ...]:
    return tuple(sorted(_NUMBER.findall(text)))


def duplicate_pairs(items: Sequence[Candidate], threshold: float) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, similarity)`` with ``i < j`` and cosine similarity >= ``threshold``.

    A pair whose texts carry different numbers (times, amounts, codes) is never a duplicate:
    "arrives 10:05" and "arrives 11:40" embed almost alike but are different facts.
    Memory use is bounded by computing the similarity matrix in blocks.
    """
    if len(items) < 2:
        return []
    m = np.asarray([list(c.embedding) for c in items], dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    m = (m / np.where(norms == 0, 1.0, norms)).astype(np.float32)
    nums = [_numbers(c.text) for c in items]
    out: list[tuple[int, int, float]] = []
    for start in range(0, len(items), _BLOCK):
        block = m[start : start + _BLOCK] @ m.T
        rows, cols = np.nonzero(block >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            i = start + r
            if c > i and nums[i] == nums[c]:
                out.append((i, c, float(block[r, c])))
    return out


def group(n: int, pairs: Sequence[tuple[int, int, float]]) -> list[list[int]]:
    """Connected groups (union-find) of size >= 2, each sorted (smallest index = canonical)."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _ in pairs:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return [sorted(g) for g in groups.values() if len(g) > 1]
