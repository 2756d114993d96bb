"""JSON chat over an OpenAI-compatible endpoint: the one client setup, retry policy and error
naming shared by the LLM extractor and the LLM classifier."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential, wait_random

from .errors import ConfigError, ExtractionError

if TYPE_CHECKING:
    from openai import OpenAI

T = TypeVar("T")

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")


class InvalidOutput(Exception):
    """The endpoint answered, but not with the JSON object asked for (retried)."""


def load_json_object(content: str | None) -> dict[str, Any]:
    """The JSON object in a completion (code fences allowed).

    Raises:
        InvalidOutput: empty, not JSON, or not an object.
    """
    if not content:
        raise InvalidOutput("empty content")
    try:
        data = json.loads(_FENCE.sub("", content))
    except json.JSONDecodeError:
        raise InvalidOutput("invalid JSON") from None
    if not isinstance(data, dict):
        raise InvalidOutput("not an object")
    return data


def describe(exc: BaseException, invalid: str) -> str:
    """Name an error without its message (which may echo the prompt)."""
    if isinstance(exc, InvalidOutput):
        return invalid
    status = getattr(exc, "status_code", None)
    hints = {
        401: " (check the API key)",
        403: " (check the API key's permissions)",
        404: " (check the model name and base_url)",
        429: " (rate limited)",
    }
    hint = hints.get(status, "") if isinstance(status, int) else ""
    where = f" HTTP {status}" if status is not None else ""
    return f"{type(exc).__name__}{where}{hint}"


class JsonChat:
    """Asks an OpenAI-compatible chat endpoint for a JSON object, with bounded retries.

    The key and the endpoint resolve as the OpenAI SDK resolves them (``api_key``/``base_url``,
    else ``OPENAI_API_KEY``/``OPENAI_BASE_URL``). Transport failures are retried by the SDK
    itself, ``max_retries`` times: connection errors and HTTP 408/409/429/5xx, with its
    exponential backoff, honouring ``Retry-After`` and ``x-should-retry``. Invalid output (not a
    JSON object) is retried here, ``max_retries`` times, with the ``backoff_*`` waits. Other
    errors fail at once. Every failure becomes an ``ExtractionError`` naming ``task``, the
    error class and the number of requests sent, never the prompt.
    """

    def __init__(
        self,
        task: str,
        *,
        model: str,
        base_url: str | None,
        api_key: str | None,
        timeout_s: float,
        max_retries: int,
        backoff_initial_s: float,
        backoff_max_s: float,
        temperature: float | None,
    ) -> None:
        if not model:
            raise ConfigError(f"{task}: model must not be empty")
        if timeout_s <= 0 or max_retries < 0 or backoff_initial_s < 0 or backoff_max_s < 0:
            raise ConfigError(f"{task}: timeout_s must be > 0; retries, backoffs >= 0")
        self.task = task
        self.model = model
        self.base_url = base_url
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.temperature = temperature
        self._api_key = api_key
        self._client: OpenAI | None = None
        self._lock = threading.Lock()
        self._sent = threading.local()  # requests sent by this thread's current ask()

    def _count_request(self, request: Any) -> None:
        self._sent.n = getattr(self._sent, "n", 0) + 1

    def _get_client(self) -> OpenAI:
        with self._lock:
            if self._client is None:
                try:
                    import openai
                except ImportError as exc:
                    raise ConfigError(f"{self.task} needs the openai package: pip install openai") from exc
                try:
                    self._client = openai.OpenAI(
                        api_key=self._api_key,
                        base_url=self.base_url,
                        timeout=self.timeout_s,
                        max_retries=self.max_retries,
                        http_client=openai.DefaultHttpxClient(event_hooks={"request": [self._count_request]}),
                    )
                except openai.OpenAIError:
                    raise ConfigError(
                        f"{self.task}: no API key; pass api_key= or set OPENAI_API_KEY"
                    ) from None
            return self._client

    def ask(self, messages: list[dict[str, str]], parse: Callable[[str | None], T], *, invalid: str) -> T:
        """Send ``messages`` and return ``parse(content)``; ``parse`` raises InvalidOutput to retry.

        Raises:
            ExtractionError: the endpoint failed, or kept answering invalid output.
        """
        client = self._get_client()
        self._sent.n = 0

        def attempt() -> T:
            extra: dict[str, Any] = {}
            if self.temperature is not None:
                extra["temperature"] = self.temperature
            response = client.chat.completions.create(
                model=self.model,
                messages=cast(Any, messages),
                response_format={"type": "json_object"},
                **extra,
            )
            if not response.choices:
                raise InvalidOutput("no choices")
            return parse(response.choices[0].message.content)

        retrying = Retrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=wait_exponential(multiplier=self.backoff_initial_s, max=self.backoff_max_s)
            + wait_random(0, self.backoff_initial_s),
            retry=retry_if_exception_type(InvalidOutput),  # the SDK retries the transport
            reraise=True,
        )
        try:
            return retrying(attempt)
        except Exception as exc:  # every failure becomes an ExtractionError
            attempts = max(getattr(self._sent, "n", 0), 1)
            raise ExtractionError(
                f"{self.task} with model {self.model!r} failed after {attempts} attempt(s): "
                f"{describe(exc, invalid)}"
            ) from None
