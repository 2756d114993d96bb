"""Embeddings from OpenAI or any OpenAI-compatible endpoint, batched; retries are the SDK's own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError, EmbeddingError

_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


class OpenAIEmbedder:
    """``text-embedding-3-small`` by default; ``base_url`` for any compatible server.

    The key and the endpoint resolve as the OpenAI SDK resolves them: ``api_key``/``base_url``
    when given, else ``OPENAI_API_KEY``/``OPENAI_BASE_URL``. Retries are the SDK's: connection
    errors, HTTP 408/409/429 and 5xx, with exponential backoff, honouring ``Retry-After`` and
    ``x-should-retry``; ``max_attempts`` counts every request of one batch.

    Raises:
        ConfigError: no API key anywhere (a server that needs none takes any value), or an
            unknown model without ``dimension``.
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dimension: int | None = None,
        batch_size: int = 256,
        timeout_s: float = 30.0,
        max_attempts: int = 4,
    ) -> None:
        try:
            import openai
        except ImportError:  # pragma: no cover - openai is a dependency
            raise ConfigError("the OpenAI embedder needs: pip install openai") from None
        dim = dimension or _DIMENSIONS.get(model)
        if dim is None:
            raise ConfigError(f"give dimension= for the embedding model {model!r}")
        if max_attempts < 1:
            raise ConfigError("the OpenAI embedder: max_attempts must be at least 1")
        self._model = model
        self._dimension = dim
        self._batch_size = batch_size
        try:
            self._client: Any = openai.OpenAI(
                base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=max_attempts - 1
            )
        except openai.OpenAIError:
            raise ConfigError(
                "the OpenAI embedder has no API key: set FALKMEM_OPENAI_API_KEY or OPENAI_API_KEY"
                " (any value for a server that needs none)"
            ) from None

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            out.extend(self._batch(list(texts[start : start + self._batch_size])))
        return out

    def _batch(self, texts: list[str]) -> list[list[float]]:
        try:
            resp = self._client.embeddings.create(model=self._model, input=texts)
        except Exception as exc:
            status = getattr(exc, "status_code", None)
            where = f" HTTP {status}" if status is not None else ""
            raise EmbeddingError(
                f"the embedding endpoint failed for model {self._model!r} ({type(exc).__name__}{where});"
                " check FALKMEM_OPENAI_BASE_URL and FALKMEM_OPENAI_API_KEY"
            ) from exc
        items = sorted(resp.data, key=lambda d: d.index)
        return [list(d.embedding) for d in items]
