"""The LangGraph ``BaseStore`` contract, checked on ``FalkmemStore`` with real parts: the session's
embedded FalkorDB, the real MiniLM, a fresh tenant per test (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("langgraph")

from langchain_core.embeddings import Embeddings

from falkmem import Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.integrations.langgraph import FalkmemStore


class MiniLMEmbeddings(Embeddings):
    """The session's real MiniLM behind LangChain's ``Embeddings`` interface (what a LangGraph
    user passes as ``index["embed"]``)."""

    def __init__(self, embedder: SentenceTransformerEmbedder) -> None:
        self.embedder = embedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embedder.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embedder.embed([text])[0]


@pytest.fixture
def store(mem: Memory, tenant: Tenant) -> Iterator[FalkmemStore]:
    s = FalkmemStore(mem, tenant=tenant.id)
    yield s
    s.stop_ttl_sweeper()


@pytest.fixture
def embeddings(embedder: SentenceTransformerEmbedder) -> MiniLMEmbeddings:
    return MiniLMEmbeddings(embedder)
