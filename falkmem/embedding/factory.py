"""Builds the embedder a setting names."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from ..settings import Settings
from .base import Embedder
from .cache import CachedEmbedder, shared_cache


def make_embedder(settings: Settings) -> Embedder:
    """``minilm`` | ``openai:<model>`` | a local sentence-transformers folder; its single-text
    (query) calls go through the process's query-embedding cache (``query_cache_size``).

    Raises:
        ConfigError: an unknown embedder, or one whose package is missing (a local folder and
            ``embedder_backend="torch"`` need the ``falkmem[sentence-transformers]`` extra).
    """
    inner = _make(settings)
    if settings.query_cache_size <= 0:
        return inner
    # The bundled model's vectors are the same whoever built it: share them in the process.
    scope = inner.name if settings.embedder == "minilm" else None
    return CachedEmbedder(inner, shared_cache(settings.query_cache_size), scope=scope)


def _make(settings: Settings) -> Embedder:
    spec = settings.embedder
    if spec == "minilm":
        from .minilm import minilm

        return minilm(
            backend=settings.embedder_backend, cache_dir=settings.embedder_cache_dir,
            query_threads=settings.embedder_query_threads,
        )  # fmt: skip
    if spec.startswith("openai:"):
        from .openai import OpenAIEmbedder

        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return OpenAIEmbedder(spec.split(":", 1)[1], base_url=settings.openai_base_url, api_key=key)
    if Path(spec).is_dir():
        from .minilm import SentenceTransformerEmbedder, require_sentence_transformers

        require_sentence_transformers(f"FALKMEM_EMBEDDER={spec!r} (a sentence-transformers model folder)")
        return SentenceTransformerEmbedder(spec)
    raise ConfigError(
        f"FALKMEM_EMBEDDER: unknown embedder {spec!r}; use 'minilm', 'openai:<model>' or a local"
        " sentence-transformers folder"
    )
