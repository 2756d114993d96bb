"""Optional LLM classifier: how a new memory relates to an old one, over an OpenAI-compatible API."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from ..llm import InvalidOutput, JsonChat, load_json_object

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


class LLMClassifier:
    """Classifies memory pairs with a chat model (duplicate / refinement / supersession /
    contradiction / unrelated). The answer is validated by pydantic; an unknown relation or
    invalid JSON is retried, as are connection errors, 408/409/429 and 5xx, with capped
    exponential backoff (see ``falkmem.llm.JsonChat``). Then ``ExtractionError`` (never with
    the memory text).

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
        self._chat = JsonChat(
            "LLM classification", model=model, base_url=base_url, api_key=api_key, timeout_s=timeout_s,
            max_retries=max_retries, backoff_initial_s=backoff_initial_s, backoff_max_s=backoff_max_s,
            temperature=0.0,
        )  # fmt: skip
        self.model = model
        self.base_url = base_url

    def __repr__(self) -> str:
        return f"LLMClassifier(model={self.model!r}, base_url={self.base_url!r})"

    def classify(self, old: str, new: str) -> Verdict:
        """How ``new`` relates to ``old``.

        Raises:
            ExtractionError: the endpoint failed or kept answering an invalid verdict.
        """
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"OLD: {old}\nNEW: {new}"},
        ]
        return self._chat.ask(messages, _parse, invalid="an invalid verdict")


def _parse(content: str | None) -> Verdict:
    data = load_json_object(content)
    if isinstance(data.get("relation"), str):
        data["relation"] = data["relation"].strip().casefold()
    try:
        return Verdict.model_validate(data)
    except ValidationError:
        raise InvalidOutput("invalid verdict") from None
