"""LLMExtractor against a local OpenAI-compatible HTTP server started by the test."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from falkmem.errors import ExtractionError
from falkmem.extraction import RELATIONS, KnownEntities, LLMExtractor

Reply = tuple[int, str]


def completion(content: str) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": "test-model",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


HELIOS = completion(
    json.dumps(
        {
            "entities": [
                {"name": "Atlas team", "type": "team"},
                {"name": "Project Helios", "type": "project"},
            ],
            "triples": [{"subject": "Atlas team", "relation": "built", "object": "Project Helios"}],
        }
    )
)


class FakeOpenAI:
    """Serves POST /v1/chat/completions from a script of replies; records every request body,
    its Authorization header and its arrival time. ``error_headers`` go with every non-200
    reply (by default a 10 ms ``retry-after-ms``, so the client's own backoff stays short)."""

    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        self.times: list[float] = []
        self.error_headers: dict[str, str] = {"retry-after-ms": "10"}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path != "/v1/chat/completions":
                    status, payload = 404, '{"error": {"message": "not found"}}'
                else:
                    fake.requests.append(json.loads(body))
                    fake.auth.append(self.headers.get("Authorization"))
                    fake.times.append(time.monotonic())
                    status, payload = fake.script.pop(0) if len(fake.script) > 1 else fake.script[0]
                data = payload.encode()
                self.send_response(status)
                for name, value in (fake.error_headers if status != 200 else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def extractor(self, **kwargs: Any) -> LLMExtractor:
        opts: dict[str, Any] = {"backoff_initial_s": 0.01, "backoff_max_s": 0.05, "timeout_s": 5}
        opts.update(kwargs)
        return LLMExtractor(model="test-model", base_url=self.url, api_key="test-key", **opts)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    yield server
    server.close()


def test_request_shape_and_typed_result(fake: FakeOpenAI) -> None:
    fake.script = [(200, HELIOS)]
    known = KnownEntities([("atlas team", "Atlas team")])
    ex = fake.extractor().extract("Project Helios was built by the atlas team.", known=known)
    assert [(t.relation, t.subject, t.object) for t in ex.triples] == [
        ("built", "atlas team", "project helios")
    ]
    assert {e.key: e.type for e in ex.entities} == {"atlas team": "team", "project helios": "project"}
    (request,) = fake.requests
    assert request["model"] == "test-model"
    assert request["response_format"] == {"type": "json_object"}
    system, user = request["messages"]
    assert system["role"] == "system"
    assert "never an assistant's suggestions" in system["content"]
    assert all(r in system["content"] for r in RELATIONS)
    assert user["content"].startswith("Known entities: Atlas team\n")


def test_invalid_json_once_is_retried(fake: FakeOpenAI) -> None:
    fake.script = [(200, completion("this is not {json")), (200, HELIOS)]
    ex = fake.extractor().extract("Atlas team built Project Helios.")
    assert len(fake.requests) == 2
    assert ("built", "atlas team", "project helios") in {
        (t.relation, t.subject, t.object) for t in ex.triples
    }


def test_unknown_relation_and_type_are_mapped_never_added(fake: FakeOpenAI) -> None:
    content = {
        "entities": [{"name": "Zorg", "type": "alien"}, {"name": "Mars", "type": "City"}],
        "triples": [
            {"subject": "Zorg", "relation": "teleports_to", "object": "Mars"},
            {"subject": "Mars base", "relation": "was built by", "object": "Zorg"},
            {"subject": "Zorg", "relation": "reports-to", "object": "Queen"},
            {"subject": "Zorg", "relation": "leads", "object": "zorg"},
            {"subject": "", "relation": "leads", "object": "Mars"},
            {"subject": "Zorg", "object": "Mars"},
            "garbage",
        ],
    }
    fake.script = [(200, completion(json.dumps(content)))]
    ex = fake.extractor().extract("Zorg teleports to Mars.")
    types = {e.key: e.type for e in ex.entities}
    assert types == {"zorg": "other", "mars": "place", "mars base": "other", "queen": "other"}
    got = {(t.relation, t.subject, t.object, t.label) for t in ex.triples}
    assert got == {
        ("related_to", "zorg", "mars", "teleports_to"),
        ("built", "zorg", "mars base", "was built by"),
        ("reports_to", "zorg", "queen", None),
    }
    assert {t.relation for t in ex.triples} <= RELATIONS


def test_server_error_always_becomes_extraction_error(fake: FakeOpenAI) -> None:
    fake.script = [(500, '{"error": {"message": "boom"}}')]
    secret = "Priya's salary is 123456 and her PIN is 9999."
    with pytest.raises(ExtractionError) as info:
        fake.extractor(max_retries=2).extract(secret)
    assert len(fake.requests) == 3
    message = str(info.value)
    assert "after 3 attempt(s)" in message and "HTTP 500" in message
    assert "123456" not in message and "salary" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_client_error_is_not_retried(fake: FakeOpenAI) -> None:
    fake.script = [(401, '{"error": {"message": "bad key"}}')]
    with pytest.raises(ExtractionError, match="HTTP 401"):
        fake.extractor().extract("Atlas team built Project Helios.")
    assert len(fake.requests) == 1


def test_rate_limit_then_success(fake: FakeOpenAI) -> None:
    fake.script = [(429, '{"error": {"message": "slow down"}}'), (200, HELIOS)]
    assert fake.extractor().extract("Atlas team built Project Helios.").triples
    assert len(fake.requests) == 2


def test_assistant_words_are_never_sent(fake: FakeOpenAI) -> None:
    fake.script = [(200, completion('{"entities": [], "triples": []}'))]
    llm = fake.extractor()
    dialog = (
        "User: I booked flight UA 837 to Tokyo.\n"
        "Assistant: You should also book the Hilton Shinjuku.\n"
        "It has a great view of Mount Fuji.\n"
        "Note: the Park Hyatt is nice too.\n"
        "Dana: My confirmation code is QX7RTP.\n"
        "AI: Want me to reserve the Ritz?"
    )
    assert llm.extract(dialog) == llm.extract(dialog)
    for request in fake.requests:
        body = json.dumps(request)
        assert "UA 837" in body and "QX7RTP" in body
        for suggestion in ("Hilton", "Mount Fuji", "Park Hyatt", "Ritz", "Assistant:", "AI:"):
            assert suggestion not in body
    sent = len(fake.requests)
    for speaker in ("assistant", "Agent", " system ", "tool"):
        assert llm.extract("Book the Hilton Shinjuku.", speaker=speaker).entities == ()
    assert llm.extract("Assistant: only the assistant spoke.").entities == ()
    assert len(fake.requests) == sent  # nothing was sent for those
    llm.extract("Book the Hilton Shinjuku.", speaker="dana")
    assert len(fake.requests) == sent + 1
