"""LLMExtractor: entity/triple extraction through an OpenAI-compatible chat completions API."""

from __future__ import annotations

import re
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from falkmem.errors import InputError

from ..llm import InvalidOutput, JsonChat, load_json_object
from ..text.keys import canonical_key
from .base import ASSISTANT_SPEAKERS
from .keys import lookup_relation
from .known import KnownEntities
from .lexicon import words
from .types import (
    ENTITY_TYPES,
    RELATIONS,
    EntityMention,
    EntityType,
    Extraction,
    Relation,
    Triple,
)

__all__ = ["SYSTEM_PROMPT", "LLMExtractor", "user_text"]

SYSTEM_PROMPT = f"""You extract a knowledge graph from one memory of a user.
Return only a JSON object: {{"entities": [{{"name": str, "type": str}}],
"triples": [{{"subject": str, "relation": str, "object": str}}]}}.
Entity types (use exactly one of these): {", ".join(sorted(ENTITY_TYPES))}.
Relations (use exactly one of these): {", ".join(sorted(RELATIONS))}.
Rules:
- Extract only facts stated by the user; never an assistant's suggestions, questions or plans.
- The subject acts: "Helios was built by the Atlas team" is
  {{"subject": "Atlas team", "relation": "built", "object": "Project Helios"}}.
- Whoever made a work created it: "The Salt Orchard is a 1987 film directed by Mirela Dastani" is
  {{"subject": "Mirela Dastani", "relation": "created", "object": "The Salt Orchard"}}.
- Kin and spouses are family: "Ysolde the Fair was the daughter of Halvard Thornvale" is
  {{"subject": "Ysolde the Fair", "relation": "family", "object": "Halvard Thornvale"}}.
- A job title is an entity of type role: "Marcus is the VP of Engineering" is
  {{"subject": "Marcus", "relation": "holds_role", "object": "VP of Engineering"}}.
- Keep identifiers (codes, flight numbers, order ids, emails, dates, amounts) verbatim.
- Use the names of known entities when the text means them.
- Use related_to when no other relation fits. Return empty lists when nothing is stated."""

_TYPE_SYNONYMS: dict[str, EntityType] = {
    "org": "organization", "organisation": "organization", "company": "organization",
    "business": "organization", "institution": "organization", "location": "place",
    "city": "place", "country": "place", "address": "place", "gpe": "place",
    "loc": "place", "time": "date", "datetime": "date", "money": "amount", "price": "amount",
    "currency": "amount", "code": "identifier", "id": "identifier", "number": "identifier",
    "title": "role", "job_title": "role", "position": "role", "job": "role",
    "group": "team", "department": "team", "people": "person", "per": "person",
    "software": "product", "tool": "product", "idea": "concept", "topic": "concept",
}  # fmt: skip
_ASSISTANT_LABELS = ASSISTANT_SPEAKERS | {"chatgpt", "gpt", "claude", "model", "ai assistant"}
_NON_SPEAKER_LABELS = words(
    "note notes summary step example tip warning answer result options option suggestion "
    "recommendation source update ps todo important reminder edit context re fyi http https "
    "subject date time cc to from"
)
_LABEL = re.compile(r"^\s*[\[*]*(?P<who>[A-Za-z][\w .'-]{0,30}?)[\]*]*\s*:(?!//)")
_MAX_HINTS = 50


def user_text(text: str) -> str:
    """Drop the assistant's turns from a dialog, keeping the user's words.

    A line labelled ``Assistant:``, ``AI:``, ``Agent:``, ``Bot:``, ``System:``, ``Tool:`` (any
    case) starts an assistant turn; it runs until a line labelled with another speaker
    (``User:``, ``Dana:``). Labels such as ``Note:`` do not end a turn.

    Args:
        text: a memory text, possibly a dialog.

    Returns:
        The text without the assistant's lines (unchanged when it has none).
    """
    kept: list[str] = []
    in_assistant = False
    for line in text.splitlines():
        m = _LABEL.match(line)
        if m is not None:
            who = " ".join(m.group("who").casefold().split())
            if who in _ASSISTANT_LABELS or who.removeprefix("the ") in _ASSISTANT_LABELS:
                in_assistant = True
                continue
            if who not in _NON_SPEAKER_LABELS:
                in_assistant = False
        if not in_assistant:
            kept.append(line)
    return "\n".join(kept).strip()


class _RawEntity(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    type: str = "other"


class _RawTriple(BaseModel):
    model_config = ConfigDict(extra="ignore")
    subject: str
    relation: str
    object: str


class LLMExtractor:
    """Extracts entities and typed triples with an OpenAI-compatible chat model.

    Only the user's words are sent: text whose ``speaker`` is an assistant, agent, system or
    tool gives an empty extraction without a request, and the assistant's turns of a dialog
    are dropped (``user_text``). The answer is validated against the fixed vocabularies: an
    unknown entity type becomes ``"other"``; an unknown relation is mapped with
    ``lookup_relation`` (keeping the model's word in ``label``) or, when nothing matches,
    kept as ``related_to`` with that label; the vocabulary never grows. Connection errors,
    timeouts, HTTP 408/409/429/5xx and invalid JSON are retried with capped exponential
    backoff; then ``ExtractionError`` (its message never contains the text).

    Args:
        model: the chat model name.
        base_url: an OpenAI-compatible endpoint (``.../v1``); ``None`` for OpenAI.
        api_key: the API key; ``None`` reads ``OPENAI_API_KEY``.
        timeout_s: the timeout of one request.
        max_retries: retries after the first attempt.
        backoff_initial_s: the first backoff wait.
        backoff_max_s: the cap of one backoff wait.
        temperature: the sampling temperature; ``None`` to not send one.
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
        temperature: float | None = 0.0,
    ) -> None:
        self._chat = JsonChat(
            "LLM extraction", model=model, base_url=base_url, api_key=api_key, timeout_s=timeout_s,
            max_retries=max_retries, backoff_initial_s=backoff_initial_s, backoff_max_s=backoff_max_s,
            temperature=temperature,
        )  # fmt: skip
        self.model = model
        self.base_url = base_url

    def __repr__(self) -> str:
        return f"LLMExtractor(model={self.model!r}, base_url={self.base_url!r})"

    def extract(
        self, text: str, *, known: KnownEntities | None = None, speaker: str | None = None
    ) -> Extraction:
        """Extract entities and triples from the user's words in ``text``.

        Args:
            text: the memory text (a dialog's assistant turns are dropped).
            known: the tenant's known entities; those found in the text are named to the
                model so it reuses their names.
            speaker: who said the text; an assistant/agent/system/tool speaker gives an empty
                extraction.

        Returns:
            The validated extraction.

        Raises:
            ExtractionError: the endpoint failed or kept answering invalid JSON.
            ConfigError: the ``openai`` package is missing or no API key is configured.
        """
        if speaker is not None and speaker.strip().casefold() in ASSISTANT_SPEAKERS:
            return Extraction()
        content = user_text(text)
        if not content:
            return Extraction()
        hints = [m.name for m in known.find(content)][:_MAX_HINTS] if known is not None else []
        user = content if not hints else f"Known entities: {'; '.join(hints)}\n\n{content}"
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": user},
        ]
        invalid = "the endpoint did not return a JSON object with entities/triples"
        return _to_extraction(self._chat.ask(messages, _parse_json, invalid=invalid))


def _parse_json(content: str | None) -> dict[str, Any]:
    data = load_json_object(content)
    for field in ("entities", "triples"):
        if not isinstance(data.get(field, []), list):
            raise InvalidOutput(f"{field} is not a list")
    return data


def _entity_type(raw: str) -> EntityType:
    low = "_".join(raw.casefold().split())
    if low in ENTITY_TYPES:
        return cast(EntityType, low)
    return _TYPE_SYNONYMS.get(low, "other")


def _relation(raw: str) -> tuple[Relation, bool, str | None]:
    word = "_".join(raw.strip().casefold().replace("-", " ").split())
    if word in RELATIONS:
        return cast(Relation, word), False, None
    found = lookup_relation(word.replace("_", " "))
    label = " ".join(raw.split()) or None
    if found is None:
        return "related_to", False, label
    return found[0], found[1], label


def _to_extraction(data: dict[str, Any]) -> Extraction:
    entities: dict[str, EntityMention] = {}

    def add(name: str, etype: EntityType) -> str | None:
        try:
            key = canonical_key(name)
        except InputError:
            return None
        if key not in entities:
            entities[key] = EntityMention(key=key, name=name.strip(), type=etype)
        return key

    for item in data.get("entities", []):
        try:
            e = _RawEntity.model_validate(item)
        except ValidationError:
            continue
        add(e.name, _entity_type(e.type))
    triples: list[Triple] = []
    for item in data.get("triples", []):
        try:
            t = _RawTriple.model_validate(item)
        except ValidationError:
            continue
        relation, swap, label = _relation(t.relation)
        subject, obj = add(t.subject, "other"), add(t.object, "other")
        if subject is None or obj is None or subject == obj:
            continue
        if swap:
            subject, obj = obj, subject
        triples.append(Triple(subject=subject, relation=relation, object=obj, label=label))
    return Extraction(entities=tuple(entities.values()), triples=tuple(triples))
