"""The OpenAI-compatible embedder against a small embeddings server on loopback (no patching)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from falkmem import EmbeddingError, Memory
from falkmem.embedding.openai import OpenAIEmbedder
from falkmem.testing import HashEmbedder


class _Handler(BaseHTTPRequestHandler):
    fail_first: int = 0
    calls: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).calls.append(body)
        if type(self).fail_first > 0:
            type(self).fail_first -= 1
            self.send_response(503)
            self.end_headers()
            return
        vectors = HashEmbedder(8).embed(body["input"])
        payload = {
            "object": "list", "model": body["model"],
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }  # fmt: skip
        raw = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    _Handler.calls = []
    _Handler.fail_first = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_batches_and_order(server: str) -> None:
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, batch_size=3)
    out = emb.embed([f"text {i}" for i in range(7)])
    assert len(out) == 7 and all(len(v) == 8 for v in out)
    assert [len(c["input"]) for c in _Handler.calls] == [3, 3, 1]  # type: ignore[arg-type]
    assert out == HashEmbedder(8).embed([f"text {i}" for i in range(7)])


def test_retries_a_failing_server(server: str) -> None:
    _Handler.fail_first = 2
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, max_attempts=4)
    assert len(emb.embed(["a"])) == 1
    assert len(_Handler.calls) == 3


def test_gives_up_with_a_clear_error(server: str) -> None:
    _Handler.fail_first = 10
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, max_attempts=2)
    with pytest.raises(EmbeddingError, match="FALKMEM_OPENAI_BASE_URL"):
        emb.embed(["secret memory text"])


def test_a_tenant_made_with_one_dimension_refuses_another(server: str, tmp_path: Path) -> None:
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8)
    with Memory(tmp_path, embedder=emb) as mem:
        mem.tenant("acme").add("hello world", id="h")
        assert mem.tenant("acme").search("hello", k=1).ids == ["h"]
    from falkmem import DimensionMismatch

    with (
        Memory(tmp_path, embedder=HashEmbedder(16)) as mem2,
        pytest.raises(DimensionMismatch, match="embedder"),
    ):
        mem2.tenant("acme").add("another")
