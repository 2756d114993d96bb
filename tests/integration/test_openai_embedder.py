"""The OpenAI-compatible embedder against a small embeddings server on loopback (no patching)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from falkmem import ConfigError, EmbeddingError, Memory
from falkmem.embedding.openai import OpenAIEmbedder
from falkmem.testing import HashEmbedder


class _Handler(BaseHTTPRequestHandler):
    fail_first: int = 0
    fail_status: int = 503
    fail_headers: ClassVar[dict[str, str]] = {}
    calls: ClassVar[list[dict[str, object]]] = []
    auth: ClassVar[list[str | None]] = []
    times: ClassVar[list[float]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).calls.append(body)
        type(self).auth.append(self.headers.get("Authorization"))
        type(self).times.append(time.monotonic())
        if type(self).fail_first > 0:
            type(self).fail_first -= 1
            self.send_response(type(self).fail_status)
            for name, value in type(self).fail_headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
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
    _Handler.auth = []
    _Handler.times = []
    _Handler.fail_first = 0
    _Handler.fail_status = 503
    _Handler.fail_headers = {"retry-after-ms": "10"}  # the client's own backoff, kept short
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


def test_api_key_comes_from_openai_api_key_like_the_sdk(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "key-from-env")
    OpenAIEmbedder("tiny", base_url=server, dimension=8).embed(["a"])
    OpenAIEmbedder("tiny", base_url=server, api_key="key-given", dimension=8).embed(["b"])
    assert _Handler.auth == ["Bearer key-from-env", "Bearer key-given"]


def test_no_api_key_anywhere_is_a_config_error(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        OpenAIEmbedder("tiny", base_url=server, dimension=8)
    assert _Handler.calls == []  # nothing was sent with a made-up key


def test_honours_retry_after(server: str) -> None:
    _Handler.fail_first, _Handler.fail_status = 1, 429
    _Handler.fail_headers = {"Retry-After": "2"}
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, max_attempts=3)
    assert len(emb.embed(["a"])) == 1
    assert len(_Handler.calls) == 2
    assert _Handler.times[1] - _Handler.times[0] >= 1.9  # waited as the server asked


def test_one_retry_layer_that_obeys_the_server(server: str) -> None:
    _Handler.fail_first = 10
    _Handler.fail_headers = {"x-should-retry": "false"}  # the server says: do not retry
    emb = OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, max_attempts=4)
    with pytest.raises(EmbeddingError):
        emb.embed(["a"])
    assert len(_Handler.calls) == 1
    _Handler.calls.clear()
    _Handler.fail_headers = {"retry-after-ms": "10"}
    with pytest.raises(EmbeddingError):
        OpenAIEmbedder("tiny", base_url=server, api_key="k", dimension=8, max_attempts=3).embed(["b"])
    assert len(_Handler.calls) == 3  # max_attempts in all, not attempts x the client's retries
