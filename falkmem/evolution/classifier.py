"""Optional LLM classifier: how a new memory relates to an old one, over an OpenAI-compatible API."""

from __future__ import annotations

import json
import re
import threading
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from ..errors import ConfigError, ExtractionError

if TYPE_CHECKING:
    from openai import OpenAI

__all__ = ["RELATIONS", "Classifier", "LLMClassifier", "Verdict"]

Relation = Literal["duplicate", "refinement", "supersession", "contradiction", "unrelated"]
RELATIONS: tuple[str, ...] = ("duplicate", "refinement", "supersession", "contradiction", "unrelated")

SYSTEM_PROMPT = """You compare two memories of one user: OLD (stored earlier) and NEW.
Answer only a JSON object {"relation": str, "reason": str} where relation is exactly one of:
- duplicate: NEW says the same as OLD.
- refinement: NEW says what OLD says, more precisely or with more detail.
- supersession: NEW updates OLD; OLD was true but no longer is (a changed time, role, plan...).
- contradiction: NEW and OLD cannot both be true, and NEW does not say that things changed.
- unrelated: different subjects, or both can be true together.
When unsure, answer unrelated."""

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")


class Verdict(BaseModel):
    """The classifier's answer, validated."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    relation: Relation
    reason: str = ""


@runtime_checkable
class Classifier(Protocol):
    """Anything that classifies a pair of memory texts (the LLM one, a rule, a test double)."""

    def classify(self, old: str, new: str) -> Verdict:
        """How ``new`` relates to ``old``."""
        ...


class _Invalid(Exception):
    """The endpoint answered, but not with a valid verdict."""


class LLMClassifier:
    """Classifies memory pairs with a chat model (duplicate / refinement / supersession /
    contradiction / unrelated). The answer is validated by pydantic; an unknown relation or
    invalid JSON is retried, as are connection errors, 408/409/429 and 5xx, with capped
    exponential backoff (tenacity). Then ``ExtractionError`` (never with the memory text).

    Args:
        model: the chat model name.
        base_url: an OpenAI-compatible endpoint (``.../v1``); None for OpenAI.
        api_key: the API key; None reads ``OPENAI_API_KEY``.
        timeout_s: one request's timeout.
        max_retries: retries after the first attempt.
        backoff_initial_s: the first backoff wait.
        backoff_max_s: the cap of one wait.
    """

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 30,
        max_retries: int = 3,
        *,
        backoff_initial_s: float = 0.5,
        backoff_max_s: float = 8.0,
    ) -> None:
        if not model or timeout_s <= 0 or max_retries < 0:
            raise ConfigError("LLMClassifier: model must be set, timeout_s > 0, max_retries >= 0")
        self.model = model
        self.base_url = base_url
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self._api_key = api_key
        self._client: OpenAI | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LLMClassifier(model={self.model!r}, base_url={self.base_url!r})"

    def _get_client(self) -> OpenAI:
        with self._lock:
            if self._client is None:
                import openai

                try:
                    self._client = openai.OpenAI(
                        api_key=self._api_key, base_url=self.base_url, timeout=self.timeout_s, max_retries=0
                    )
                except openai.OpenAIError:
                    raise ConfigError(
                        "LLMClassifier: no API key; pass api_key= or set OPENAI_API_KEY"
                    ) from None
            return self._client

    def classify(self, old: str, new: str) -> Verdict:
        """How ``new`` relates to ``old``.

        Raises:
            ExtractionError: the endpoint failed or kept answering an invalid verdict.
        """
        import openai

        client = self._get_client()
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"OLD: {old}\nNEW: {new}"},
        ]

        def retryable(exc: BaseException) -> bool:
            if isinstance(exc, _Invalid | openai.APIConnectionError):
                return True
            if isinstance(exc, openai.APIStatusError):
                return exc.status_code in (408, 409, 429) or exc.status_code >= 500
            return False

        def attempt() -> Verdict:
            response = client.chat.completions.create(
                model=self.model, messages=cast(Any, messages), response_format={"type": "json_object"},
                temperature=0.0,
            )  # fmt: skip
            if not response.choices:
                raise _Invalid()
            return _parse(response.choices[0].message.content)

        retrying = Retrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=wait_exponential(multiplier=self.backoff_initial_s, max=self.backoff_max_s),
            retry=retry_if_exception(retryable),
            reraise=True,
        )
        try:
            return retrying(attempt)
        except Exception as exc:
            attempts = retrying.statistics.get("attempt_number", 1)
            status = getattr(exc, "status_code", None)
            what = "an invalid verdict" if isinstance(exc, _Invalid) else type(exc).__name__
            where = f" HTTP {status}" if status is not None else ""
            raise ExtractionError(
                f"LLM classification with model {self.model!r} failed after {attempts} attempt(s): {what}{where}"
            ) from None


def _parse(content: str | None) -> Verdict:
    if not content:
        raise _Invalid()
    try:
        data = json.loads(_FENCE.sub("", content))
    except json.JSONDecodeError:
        raise _Invalid() from None
    if isinstance(data, dict) and isinstance(data.get("relation"), str):
        data["relation"] = data["relation"].strip().casefold()
    try:
        return Verdict.model_validate(data)
    except ValidationError:
        raise _Invalid() from None
