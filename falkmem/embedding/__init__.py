"""Embedders: the protocol, the offline MiniLM default and the OpenAI-compatible one."""

from .base import Embedder as Embedder
from .base import embed_checked as embed_checked
from .factory import make_embedder as make_embedder

__all__ = ["Embedder", "embed_checked", "make_embedder"]
