"""The question is embedded on the channel pool while it is routed (retrieval/pipeline.py):
what the embedder raises still reaches the caller, and nothing is left half done.
(search_many's given vectors: tests/integration/test_batch.py.)"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from falkmem import Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.errors import EmbeddingError


class _Flaky:
    """The real MiniLM, except that it fails on one text and counts its calls."""

    def __init__(self, inner: SentenceTransformerEmbedder, bad: str) -> None:
        self.inner, self.bad, self.calls = inner, bad, 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.bad in texts:
            raise RuntimeError("model crashed")
        return self.inner.embed(texts)


@pytest.fixture
def flaky(
    store_path: Path, embedder: SentenceTransformerEmbedder, tenant_id: str
) -> Iterator[tuple[Tenant, _Flaky]]:
    emb = _Flaky(embedder, "crash on this question")
    url = os.environ.get("FALKMEM_TEST_URL")
    with Memory(url=url, embedder=emb) if url else Memory(store_path, embedder=emb) as m:
        m.drop_tenant(tenant_id)
        t = m.tenant(tenant_id)
        t.add("Booked flight UA 837 to Lisbon, confirmation code QX7RTP.", id="f")
        yield t, emb
        m.drop_tenant(tenant_id)


def test_an_embedder_failure_reaches_the_caller_and_the_next_search_works(
    flaky: tuple[Tenant, _Flaky],
) -> None:
    tenant, emb = flaky
    with pytest.raises(EmbeddingError, match="failed"):
        tenant.search("crash on this question", k=3)
    calls = emb.calls
    r = tenant.search("Which flight goes to Lisbon?", k=3)
    assert r.ids == ["f"] and emb.calls == calls + 1 and r.timings_ms["embed"] > 0
