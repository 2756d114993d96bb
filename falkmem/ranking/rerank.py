"""Reranking of the top fused candidates: the ``Reranker`` protocol, a cross-encoder, loading."""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, runtime_checkable

from ..embedding.quiet import quiet_model_loading
from ..errors import ConfigError, InputError, RerankError
from .fusion import Fused

__all__ = [
    "MAX_PASSAGE_CHARS",
    "CrossEncoderReranker",
    "NoReranker",
    "RerankOutcome",
    "Reranker",
    "load_reranker",
    "rerank",
]

MAX_PASSAGE_CHARS = 4_000
"""Characters of a passage (and of the query) sent to the model: bounds the tokenizer's work."""

_NONE_SPECS = frozenset({"", "none", "off", "fused"})
_PREFIX = "cross-encoder:"


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs, higher is more relevant; ``name`` says what ran
    (``"none"``, ``"cross-encoder:<model>"``)."""

    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One finite score per passage, in passage order."""
        ...


class NoReranker:
    """The reranker that does nothing: results keep their fused order."""

    name: str = "none"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """A zero for every passage (:func:`rerank` does not call it)."""
        return [0.0] * len(passages)


class CrossEncoderReranker:
    """A sentence-transformers ``CrossEncoder`` (a local directory, or a hub name already in the
    cache), loaded on first use. Scores are its raw logits (no sigmoid), so strong matches do not
    all saturate at 1.0 and tie. ``max_length``: tokens per (query, passage) pair, at least 8."""

    def __init__(self, model: str, *, max_length: int = 256) -> None:
        if max_length < 8:
            raise ConfigError(f"cross-encoder max_length must be >= 8 tokens (got {max_length})")
        self.model = model
        self.max_length = max_length
        self.name = f"{_PREFIX}{model}"
        self._encoder: Any = None  # sentence_transformers.CrossEncoder, typed loosely: no stubs
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (idempotent, thread-safe); ``RerankError`` when it cannot be."""
        with self._lock:
            if self._encoder is not None:
                return
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise RerankError(
                    "the cross-encoder reranker needs sentence-transformers: "
                    "pip install 'falkmem[rerank]', or set reranker='none'"
                ) from exc
            try:
                with quiet_model_loading():
                    self._encoder = CrossEncoder(self.model, max_length=self.max_length)
            except Exception as exc:  # any loader failure (OSError, ValueError, HF errors...)
                raise RerankError(
                    f"{self.name} failed to load ({type(exc).__name__}). Give the path of a "
                    "local cross-encoder directory (no weights can be downloaded when "
                    "HF_HUB_OFFLINE=1), or set reranker='none' to rank by the fused score"
                ) from exc

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One finite score per passage (each text cut at :data:`MAX_PASSAGE_CHARS`);
        ``RerankError`` when the model fails to load or to run, or returns bad scores."""
        if not passages:
            return []
        self.load()
        q = query[:MAX_PASSAGE_CHARS]
        pairs = [(q, p[:MAX_PASSAGE_CHARS]) for p in passages]
        options: dict[str, Any] = {"batch_size": 32, "show_progress_bar": False}
        try:
            try:
                raw = self._encoder.predict(pairs, activation_fn=_identity(), **options)
            except TypeError:  # sentence-transformers 3.x calls it activation_fct
                raw = self._encoder.predict(pairs, activation_fct=_identity(), **options)
            scores = [float(x) for x in _as_numpy(raw).reshape(len(pairs), -1)[:, 0]]
        except Exception as exc:
            raise RerankError(f"{self.name} failed to score ({type(exc).__name__})") from exc
        if len(scores) != len(passages) or not all(math.isfinite(s) for s in scores):
            raise RerankError(f"{self.name} returned invalid scores (wrong count or NaN/inf)")
        return scores


def _as_numpy(raw: Any) -> Any:
    """The predictions as a numpy array, whatever container the library returned."""
    import numpy as np

    if hasattr(raw, "detach"):  # a torch tensor
        raw = raw.detach().float().cpu().numpy()
    return np.asarray(raw, dtype=np.float64)


def _identity() -> Any:
    """``torch.nn.Identity()``: ask the cross-encoder for raw logits instead of a sigmoid."""
    import torch

    return torch.nn.Identity()


@dataclass(frozen=True, slots=True)
class RerankOutcome:
    """The reranker that will run (``NoReranker`` when none is configured or loadable), a note
    saying why (``explain()``), the spec asked for, and whether a configured one failed to load."""

    reranker: Reranker
    note: str
    requested: str | None = None
    fell_back: bool = False


def load_reranker(
    spec: str | None,
    *,
    on_error: Literal["raise", "fallback"] = "raise",
    max_length: int = 256,
) -> RerankOutcome:
    """Build and load the reranker named by ``spec``: None, ``""`` or ``"none"`` for none, else a
    cross-encoder model, optionally prefixed ``"cross-encoder:"``. A model that cannot be loaded
    raises :class:`RerankError` or, with ``on_error="fallback"``, gives :class:`NoReranker`."""
    text = (spec or "").strip()
    if text.lower() in _NONE_SPECS:
        return RerankOutcome(NoReranker(), "no reranker configured; ranked by fused score", spec)
    model = text[len(_PREFIX) :] if text.startswith(_PREFIX) else text
    reranker = CrossEncoderReranker(model, max_length=max_length)
    try:
        reranker.load()
    except RerankError as exc:
        if on_error == "raise":
            raise
        cause = type(exc.__cause__).__name__ if exc.__cause__ is not None else "RerankError"
        note = f"{reranker.name} failed to load: {cause}; fell back to fused order"
        return RerankOutcome(NoReranker(), note, spec, fell_back=True)
    return RerankOutcome(reranker, f"reranked by {reranker.name}", spec)


def rerank(
    query: str,
    fused: Sequence[Fused],
    texts: Mapping[str, str],
    reranker: Reranker,
    *,
    top_n: int,
) -> list[Fused]:
    """Rerank the first ``top_n`` fused candidates by reranker score (ties keep fused order); the
    rest follow in fused order. A head item without a text in ``texts`` keeps
    ``rerank_score=None`` and goes after the scored ones."""
    if top_n < 0:
        raise InputError("top_n", "must be 0 or more")
    if isinstance(reranker, NoReranker) or top_n == 0 or not fused:
        return list(fused)
    head, tail = list(fused[:top_n]), list(fused[top_n:])
    scorable = [item for item in head if item.id in texts]
    unscorable = [item for item in head if item.id not in texts]
    scores = reranker.score(query, [texts[item.id] for item in scorable]) if scorable else []
    if len(scores) != len(scorable) or not all(math.isfinite(s) for s in scores):
        raise RerankError(f"{reranker.name} returned invalid scores (wrong count or NaN/inf)")
    order = sorted(range(len(scorable)), key=lambda i: (-scores[i], i))
    reranked = [replace(scorable[i], rerank_score=float(scores[i])) for i in order]
    return reranked + unscorable + tail
