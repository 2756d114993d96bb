"""LLMExtractor: entity/triple extraction through an OpenAI-compatible chat completions API."""

from __future__ import annotations

import re
from typing import Any, cast

from ..llm import InvalidOutput, JsonChat, load_json_object
from ..text.keys import key_of
from .known import KnownEntities
from .lexicon import words
from .types import EntityMention, Extraction, Triple
from .vocab import ENTITY_TYPES, RELATIONS, EntityType, Relation, normalize_relation

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
_ASSISTANT_SPEAKERS = words("assistant agent system tool ai bot")
"""Speakers whose words are never a source of facts."""
_ASSISTANT_LABELS = _ASSISTANT_SPEAKERS | {"chatgpt", "gpt", "claude", "model", "ai assistant"}
_NON_SPEAKER_LABELS = words(
    "note notes summary step example tip warning answer result options option suggestion "
    "recommendation source update ps todo important reminder edit context re fyi http https "
    "subject date time cc to from"
)
_LABEL = re.compile(r"^\s*[\[*]*(?P<who>[A-Za-z][\w .'-]{0,30}?)[\]*]*\s*:(?!//)")
_MAX_HINTS = 50


def user_text(text: str) -> str:
    """The text without a dialog's assistant turns: a line labelled ``Assistant:``, ``AI:``,
    ``Bot:``... (any case) opens one, which runs until a line labelled with another speaker
    (``User:``, ``Dana:``; labels such as ``Note:`` do not end it)."""
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


class LLMExtractor:
    """Extracts entities and typed triples with an OpenAI-compatible chat model.

    Only the user's words are sent: an assistant, agent, system or tool ``speaker`` gives an
    empty extraction without a request, and a dialog's assistant turns are dropped (``user_text``).
    An unknown entity type becomes ``"other"``; an unknown relation is mapped with
    ``normalize_relation``, the model's word kept as ``label``: the vocabulary never grows. Failures
    are retried with capped backoff (``JsonChat``). ``base_url`` ``None`` is OpenAI; ``api_key``
    ``None`` reads ``OPENAI_API_KEY``; ``temperature`` ``None`` sends none.
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
        """Extract entities and triples from the user's words in ``text``; the ``known`` entities
        found there are named to the model so it reuses their names.

        Raises:
            ExtractionError: the endpoint failed or kept answering invalid JSON.
            ConfigError: the ``openai`` package is missing or no API key is configured.
        """
        if speaker is not None and speaker.strip().casefold() in _ASSISTANT_SPEAKERS:
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
    word = "_".join(raw.casefold().replace("-", " ").split())
    if word in RELATIONS:
        return cast(Relation, word), False, None
    relation, swap = normalize_relation(raw)
    return relation, swap, " ".join(raw.split()) or None


def _to_extraction(data: dict[str, Any]) -> Extraction:
    entities: dict[str, EntityMention] = {}

    def add(name: str, etype: EntityType) -> str | None:
        key = key_of(name)
        if key is not None and key not in entities:
            entities[key] = EntityMention(key=key, name=name.strip(), type=etype)
        return key

    for item in data.get("entities", []):
        if (e := _strings(item, name=None, type="other")) is not None:
            add(e[0], _entity_type(e[1]))
    triples: list[Triple] = []
    for item in data.get("triples", []):
        if (t := _strings(item, subject=None, relation=None, object=None)) is None:
            continue
        relation, swap, label = _relation(t[1])
        subject, obj = add(t[0], "other"), add(t[2], "other")
        if subject is None or obj is None or subject == obj:
            continue
        if swap:
            subject, obj = obj, subject
        triples.append(Triple(subject=subject, relation=relation, object=obj, label=label))
    return Extraction(entities=tuple(entities.values()), triples=tuple(triples))


def _strings(item: Any, **fields: str | None) -> list[str] | None:
    """The string values of a JSON object's fields (a missing one takes its default, None: required),
    or None when it is no object or one of them is no string."""
    if not isinstance(item, dict):
        return None
    values = [item.get(name, default) for name, default in fields.items()]
    strings = [v for v in values if isinstance(v, str)]
    return strings if len(strings) == len(values) else None
