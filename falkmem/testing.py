"""Deterministic stand-ins for tests and offline benchmarks (public, but not for production)."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence


class HashEmbedder:
    """Maps text to a unit vector by hashing its words: equal texts give equal vectors,
    texts sharing words are similar. No model, no I/O; used to test the plumbing fast.
    """

    def __init__(self, dimension: int = 384, *, name: str = "hash") -> None:
        self._dimension = dimension
        self._name = f"{name}-{dimension}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for t in texts:
            v = [0.0] * self._dimension
            for w in re.findall(r"\w+", t.lower()) or [t]:
                h = hashlib.blake2b(w.encode(), digest_size=8).digest()
                v[int.from_bytes(h[:4], "little") % self._dimension] += 1.0 if h[4] & 1 else -1.0
            norm = math.sqrt(sum(x * x for x in v)) or 1.0
            out.append([x / norm for x in v])
        return out
