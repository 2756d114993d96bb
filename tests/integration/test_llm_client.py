"""``falkmem.llm.JsonChat`` (the LLM extractor's and classifier's client) leaves the API key and
transport retries to the OpenAI SDK, against a local OpenAI-compatible server (issue 12, item 12)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from falkmem.errors import ConfigError, ExtractionError
from falkmem.llm import JsonChat, load_json_object
from tests.integration.test_llm_extractor import FakeOpenAI, completion

OK = (200, completion(json.dumps({"answer": 42})))
ASK = [{"role": "user", "content": "a question"}]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    yield server
    server.close()


def chat(fake: FakeOpenAI, api_key: str | None = "k", max_retries: int = 3) -> JsonChat:
    return JsonChat(
        "test task", model="m", base_url=fake.url, api_key=api_key, timeout_s=5,
        max_retries=max_retries, backoff_initial_s=0.01, backoff_max_s=0.02, temperature=None,
    )  # fmt: skip


def test_api_key_comes_from_openai_api_key(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    fake.script = [OK]
    monkeypatch.setenv("OPENAI_API_KEY", "key-from-env")
    assert chat(fake, api_key=None).ask(ASK, load_json_object, invalid="bad") == {"answer": 42}
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        chat(fake, api_key=None).ask(ASK, load_json_object, invalid="bad")
    assert fake.auth == ["Bearer key-from-env"]


def test_honours_retry_after(fake: FakeOpenAI) -> None:
    fake.script = [(429, '{"error": {"message": "slow down"}}'), OK]
    fake.error_headers = {"Retry-After": "2"}
    assert chat(fake).ask(ASK, load_json_object, invalid="bad") == {"answer": 42}
    assert len(fake.requests) == 2
    assert fake.times[1] - fake.times[0] >= 1.9  # waited as the server asked


def test_server_saying_do_not_retry_is_obeyed(fake: FakeOpenAI) -> None:
    fake.script = [(503, '{"error": {"message": "down for good"}}')]
    fake.error_headers = {"x-should-retry": "false"}
    with pytest.raises(ExtractionError, match=r"after 1 attempt\(s\).*HTTP 503"):
        chat(fake).ask(ASK, load_json_object, invalid="bad")
    assert len(fake.requests) == 1


def test_transport_retries_are_counted_once(fake: FakeOpenAI) -> None:
    fake.script = [(500, '{"error": {"message": "boom"}}')]
    with pytest.raises(ExtractionError, match=r"after 3 attempt\(s\).*HTTP 500"):
        chat(fake, max_retries=2).ask(ASK, load_json_object, invalid="bad")
    assert len(fake.requests) == 3  # 1 + max_retries, not (1 + max_retries) squared


def test_invalid_json_is_retried_here(fake: FakeOpenAI) -> None:
    fake.script = [(200, completion("not json")), (200, completion("[1]")), OK]
    assert chat(fake).ask(ASK, load_json_object, invalid="bad") == {"answer": 42}
    fake.script = [(200, completion("not json"))]
    fake.requests.clear()
    with pytest.raises(ExtractionError, match=r"after 2 attempt\(s\): bad"):
        chat(fake, max_retries=1).ask(ASK, load_json_object, invalid="bad")
    assert len(fake.requests) == 2
