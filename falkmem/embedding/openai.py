"""Embeddings from OpenAI or any OpenAI-compatible endpoint, batched and retried."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenacity import retry, retry_if_exception, stop_after_attempt, wait_random_exponential

from ..errors import ConfigError, EmbeddingError

_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


def _retryable(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, (openai.APIConnectionError, openai.RateLimitError, openai.APITimeoutError)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


class OpenAIEmbedder:
    """``text-embedding-3-small`` by default; ``base_url`` for any compatible server."""

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
        self._model = model
        self._dimension = dim
        self._batch_size = batch_size
        self._max_attempts = max_attempts
        self._client: Any = openai.OpenAI(
            base_url=base_url, api_key=api_key or "unset", timeout=timeout_s, max_retries=0
        )

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
        @retry(
            retry=retry_if_exception(_retryable),
            stop=stop_after_attempt(self._max_attempts),
            wait=wait_random_exponential(multiplier=0.5, max=8),
            reraise=True,
        )
        def call() -> list[list[float]]:
            resp = self._client.embeddings.create(model=self._model, input=texts)
            items = sorted(resp.data, key=lambda d: d.index)
            return [list(d.embedding) for d in items]

        try:
            return call()
        except Exception as exc:
            raise EmbeddingError(
                f"the embedding endpoint failed for model {self._model!r} ({type(exc).__name__});"
                " check FALKMEM_OPENAI_BASE_URL and FALKMEM_OPENAI_API_KEY"
            ) from exc
