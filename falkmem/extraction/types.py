"""The extraction data model (frozen entity, triple and extraction models) and the Extractor protocol."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..text.keys import canonical_key
from .known import KnownEntities
from .vocab import EntityType, Relation

__all__ = ["EntityMention", "Extraction", "Extractor", "Triple", "merge_all"]


class EntityMention(BaseModel):
    """One entity a text mentions: its canonical key (canonicalised if not), display name, type
    (``"other"`` when unknown) and other surface names for the same key (never ``name``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    name: str
    type: EntityType = "other"
    aliases: tuple[str, ...] = ()

    @field_validator("key")
    @classmethod
    def _key_is_canonical(cls, value: str) -> str:
        return canonical_key(value, field="entity.key")

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("entity name must not be blank")
        return value

    @model_validator(mode="after")
    def _clean_aliases(self) -> EntityMention:
        cleaned = (" ".join(alias.split()) for alias in self.aliases)
        kept = dict.fromkeys(a for a in cleaned if a and a != self.name)
        object.__setattr__(self, "aliases", tuple(kept))
        return self


class Triple(BaseModel):
    """A typed, directed relation ``relation(subject, object)`` between two entity keys.

    ``weight`` is the evidence it adds (> 0): 1.0 for a stated relation, less for co-mention;
    ``label`` is the predicate text it was mapped from (``"was born in"`` → ``based_in``), if any.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str
    relation: Relation
    object: str
    weight: float = Field(default=1.0, gt=0.0, allow_inf_nan=False)
    label: str | None = None

    @field_validator("subject", "object")
    @classmethod
    def _endpoint_is_canonical(cls, value: str) -> str:
        return canonical_key(value, field="triple.endpoint")

    @model_validator(mode="after")
    def _no_self_loop(self) -> Triple:
        if self.subject == self.object:
            raise ValueError("a triple's subject and object must differ")
        return self


class Extraction(BaseModel):
    """The entities and triples extracted from one text, unique by key and by subject-relation-object.

    A triple endpoint without an entity gets one (name = key, type ``"other"``), so a store can
    MERGE entities by key before writing edges.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    entities: tuple[EntityMention, ...] = ()
    triples: tuple[Triple, ...] = ()

    @model_validator(mode="after")
    def _dedupe_and_complete(self) -> Extraction:
        entities, triples = _completed(self.entities, self.triples)
        object.__setattr__(self, "entities", tuple(entities.values()))
        object.__setattr__(self, "triples", tuple(triples.values()))
        return self

    def merge(self, other: Extraction) -> Extraction:
        """The union of two extractions. Entities unite by key: the first name wins, other names
        become aliases, a specific type wins over ``"other"``. Triples unite by subject, relation and
        object: the larger weight and the first label win (merging with itself changes nothing)."""
        return merge_all([(self.entities, self.triples), (other.entities, other.triples)])

    def __bool__(self) -> bool:
        return bool(self.entities or self.triples)


def merge_all(parts: Iterable[tuple[Sequence[EntityMention], Sequence[Triple]]]) -> Extraction:
    """``Extraction()`` merged with each ``(entities, triples)`` part in turn, without the unions between."""
    by_key: dict[str, EntityMention] = {}
    by_id: dict[tuple[str, str, str], Triple] = {}
    for entities, triples in parts:
        own_entities, own_triples = _completed(entities, triples)  # the part's own Extraction
        _add_entities(by_key, own_entities.values())
        _add_triples(by_id, own_triples.values())
    return Extraction(entities=tuple(by_key.values()), triples=tuple(by_id.values()))


def _completed(
    entities: Iterable[EntityMention], triples: Iterable[Triple]
) -> tuple[dict[str, EntityMention], dict[tuple[str, str, str], Triple]]:
    """What an ``Extraction`` of these holds: the entities united, a bare one per missing endpoint."""
    by_key: dict[str, EntityMention] = {}
    _add_entities(by_key, entities)
    by_id: dict[tuple[str, str, str], Triple] = {}
    _add_triples(by_id, triples)
    for t in by_id.values():
        for k in (t.subject, t.object):
            if k not in by_key:
                by_key[k] = EntityMention(key=k, name=k)
    return by_key, by_id


def _add_entities(by_key: dict[str, EntityMention], entities: Iterable[EntityMention]) -> None:
    """Unite entities into ``by_key``, in order (see ``Extraction.merge``)."""
    for e in entities:
        old = by_key.get(e.key)
        if old is None:
            by_key[e.key] = e
        elif old != e:
            etype = old.type if old.type != "other" else e.type
            aliases = (*old.aliases, e.name, *e.aliases)
            by_key[e.key] = EntityMention(key=old.key, name=old.name, type=etype, aliases=aliases)


def _add_triples(by_id: dict[tuple[str, str, str], Triple], triples: Iterable[Triple]) -> None:
    """Unite triples into ``by_id``, in order (see ``Extraction.merge``)."""
    for t in triples:
        ident = (t.subject, t.relation, t.object)
        old = by_id.get(ident)
        if old is None:
            by_id[ident] = t
        elif t.weight > old.weight or (old.label is None and t.label is not None):
            label = old.label if old.label is not None else t.label
            by_id[ident] = old.model_copy(update={"weight": max(old.weight, t.weight), "label": label})


@runtime_checkable
class Extractor(Protocol):
    """Turns a memory text into entities and typed triples. Must be pure: no database I/O.

    Implementations must be safe to call from several threads, never add a relation or entity
    type outside the fixed vocabularies, and raise ``ExtractionError`` (never leak the text
    in a message) when they fail.
    """

    def extract(
        self, text: str, *, known: KnownEntities | None = None, speaker: str | None = None
    ) -> Extraction:
        """Extract entities and triples from ``text``, said by ``speaker`` (``"user"``, a user
        name, ``"assistant"``...), reusing the names of the tenant's ``known`` entities."""
        ...
