"""The ``index`` of a ``FalkmemStore``: LangGraph's ``IndexConfig`` read into what falkmem needs
(the embedder the tenant writes and searches with, and the value fields embedded)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base.embed import ensure_embeddings, tokenize_path

from ...embedding.base import Embedder
from ...errors import ConfigError

__all__ = ["IndexSpec", "LangChainEmbedder", "embedder_name", "read_index"]

_KEYS = frozenset({"dims", "embed", "fields", "distance_type"})


class LangChainEmbedder:
    """A LangChain ``Embeddings`` (or an embedding function LangGraph wraps into one) as a falkmem
    :class:`~falkmem.embedding.base.Embedder`: documents through ``embed_documents``, a search's
    question through ``embed_query``. An async-only function runs on a private event loop."""

    def __init__(self, embeddings: Embeddings, *, name: str, dimension: int) -> None:
        self.embeddings = embeddings
        self._name = name
        self._dimension = dimension

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if _async_only(self.embeddings):
            return _run(lambda: self.embeddings.aembed_documents(list(texts)))
        return self.embeddings.embed_documents(list(texts))

    def embed_query(self, text: str) -> list[float]:
        if _async_only(self.embeddings):
            return _run(lambda: self.embeddings.aembed_query(text))
        return self.embeddings.embed_query(text)


def _async_only(embeddings: Embeddings) -> bool:
    # langgraph's EmbeddingsLambda keeps an async function as `afunc` and has no `func`
    return getattr(embeddings, "afunc", None) is not None and getattr(embeddings, "func", None) is None


def _run[T](make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion from sync code, also when this thread runs an event loop."""

    async def main() -> T:
        return await make()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def embedder_name(embed: object) -> str:
    """The name a tenant records for the model behind ``embed`` (compared when it is reopened):
    a provider string as given; an ``Embeddings`` object by its class and its ``model`` (or
    ``model_name``) when it has one; a function by its module and name."""
    if isinstance(embed, str):
        return embed
    if isinstance(embed, Embeddings):
        cls = type(embed)
        name = f"{cls.__module__}.{cls.__qualname__}"
        for attr in ("model", "model_name"):
            model = getattr(embed, attr, None)
            if isinstance(model, str) and model:
                return f"{name}:{model}"
        return name
    module = getattr(embed, "__module__", None) or type(embed).__module__
    qualname = getattr(embed, "__qualname__", None) or type(embed).__qualname__
    return f"{module}.{qualname}"


@dataclass(frozen=True, slots=True)
class IndexSpec:
    """What a store's ``index`` says: the embedder (None: the Memory's), the dimension it must
    make (None: whatever the Memory's makes), and the value fields embedded (None: the whole
    value, LangGraph's ``["$"]``)."""

    embedder: LangChainEmbedder | Embedder | None
    dims: int | None
    fields: tuple[str, ...] | None


def read_index(index: Mapping[str, Any] | Sequence[str] | None) -> IndexSpec:
    """Check a store's ``index`` argument and resolve its ``embed``.

    ``index`` is LangGraph's ``IndexConfig`` (``dims``, ``embed``, ``fields``), or, as before it,
    a list of fields embedded with the Memory's embedder.

    Raises:
        ConfigError: a key LangGraph's ``IndexConfig`` does not have, a ``dims`` that is not a
            positive integer, an ``embed`` without ``dims``, a field path that does not parse,
            a provider string that cannot be loaded. The message starts with ``index.<key>``.
    """
    if index is None:
        return IndexSpec(None, None, None)
    if isinstance(index, str) or not isinstance(index, Mapping):
        if isinstance(index, str) or not isinstance(index, Sequence):
            raise ConfigError("index: give LangGraph's IndexConfig dict or a list of value fields")
        return IndexSpec(None, None, _fields(index, "index"))
    unknown = sorted(set(index) - _KEYS)
    if unknown:
        raise ConfigError(
            f"index.{unknown[0]}: not a key of LangGraph's IndexConfig (dims, embed, fields);"
            " FalkmemStore has one vector index per tenant and scores by cosine"
        )
    distance = index.get("distance_type", "cosine")
    if distance != "cosine":
        raise ConfigError(f"index.distance_type: FalkmemStore scores by cosine only, not {distance!r}")
    dims = index.get("dims")
    if dims is not None and (not isinstance(dims, int) or isinstance(dims, bool) or dims <= 0):
        raise ConfigError(f"index.dims: must be a positive integer, not {dims!r}")
    fields = index.get("fields")
    spec_fields = None if fields is None else _fields(fields, "index.fields")
    embed = index.get("embed")
    if embed is None:
        return IndexSpec(None, dims, spec_fields)
    if dims is None:
        raise ConfigError("index.dims: required with index.embed (the size of the vectors it makes)")
    return IndexSpec(_resolve(embed, dims), dims, spec_fields)


def _fields(fields: object, where: str) -> tuple[str, ...] | None:
    if isinstance(fields, str) or not isinstance(fields, Sequence):
        raise ConfigError(f"{where}: must be a list of field paths (e.g. ['text', 'items[*].note'])")
    out = []
    for f in fields:
        if not isinstance(f, str) or not f:
            raise ConfigError(f"{where}: each field path must be a non-empty string, not {f!r}")
        if f != "$":
            try:
                tokenize_path(f)
            except (ValueError, IndexError) as exc:
                raise ConfigError(f"{where}: cannot parse the path {f!r} ({exc})") from None
        out.append(f)
    return None if out == ["$"] else tuple(out)


def _resolve(embed: object, dims: int) -> LangChainEmbedder | Embedder:
    if isinstance(embed, str):
        try:
            embeddings = ensure_embeddings(embed)
        except (ValueError, ImportError) as exc:
            known = _falkmem_embedder(embed, dims)
            if known is not None:
                return known
            raise ConfigError(f"index.embed: {exc}") from None
        return LangChainEmbedder(embeddings, name=embed, dimension=dims)
    if not isinstance(embed, Embeddings) and not callable(embed):
        raise ConfigError(
            "index.embed: give a LangChain Embeddings object, a function of a list of texts"
            " (sync or async) or a 'provider:model' string"
        )
    return LangChainEmbedder(ensure_embeddings(embed), name=embedder_name(embed), dimension=dims)


def _falkmem_embedder(spec: str, dims: int) -> Embedder | None:
    """falkmem's own embedders for the strings it knows (``minilm``, ``openai:<model>``) when
    LangChain cannot load them (``langchain`` is not installed)."""
    if spec != "minilm" and not spec.startswith("openai:"):
        return None
    from ...embedding.factory import make_embedder
    from ...settings import Settings

    embedder = make_embedder(Settings.load(embedder=spec))
    if embedder.dimension != dims:
        raise ConfigError(f"index.dims: {spec!r} makes {embedder.dimension}-dimensional vectors, not {dims}")
    return embedder
