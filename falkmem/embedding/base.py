"""The ``Embedder`` protocol and the checks every embedding goes through before it is stored."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..errors import DimensionMismatch, EmbeddingError


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into fixed-size float vectors.

    ``name`` identifies the model (it is recorded in each tenant, so a tenant is never
    searched with vectors of another model); ``dimension`` is the vector size.
    """

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


def embed_checked(embedder: Embedder, texts: Sequence[str], *, dimension: int) -> list[list[float]]:
    """Embed ``texts`` and check the count, the dimension and that every value is finite.

    Raises:
        DimensionMismatch: a vector does not have ``dimension`` values.
        EmbeddingError: the embedder failed or returned the wrong number of vectors or NaNs.
    """
    if not texts:
        return []
    try:
        vectors = embedder.embed(list(texts))
    except (DimensionMismatch, EmbeddingError):
        raise
    except Exception as exc:
        raise EmbeddingError(
            f"the embedder {embedder.name!r} failed ({type(exc).__name__}); check its"
            " configuration (FALKMEM_EMBEDDER)"
        ) from exc
    if len(vectors) != len(texts):
        raise EmbeddingError(
            f"the embedder {embedder.name!r} returned {len(vectors)} vectors for {len(texts)} texts"
        )
    out: list[list[float]] = []
    for v in vectors:
        if len(v) != dimension:
            raise DimensionMismatch(
                "embedding",
                f"has {len(v)} values but this tenant stores {dimension}-dimensional vectors;"
                " use the embedder the tenant was created with",
            )
        row = [float(x) for x in v]
        if not all(math.isfinite(x) for x in row):
            raise EmbeddingError(f"the embedder {embedder.name!r} returned a NaN or infinite value")
        out.append(row)
    return out
