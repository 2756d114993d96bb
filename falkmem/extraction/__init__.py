"""Entity and relation extraction: the rule-based default, the LLM extractor and their models."""

from ..text.keys import canonical_key
from .base import Extractor
from .keys import lookup_relation, normalize_relation
from .known import KnownEntities, KnownMatch
from .llm import LLMExtractor, user_text
from .rules import RuleExtractor
from .types import ENTITY_TYPES, RELATIONS, EntityMention, EntityType, Extraction, Relation, Triple

__all__ = [
    "ENTITY_TYPES",
    "RELATIONS",
    "EntityMention",
    "EntityType",
    "Extraction",
    "Extractor",
    "KnownEntities",
    "KnownMatch",
    "LLMExtractor",
    "Relation",
    "RuleExtractor",
    "Triple",
    "canonical_key",
    "lookup_relation",
    "normalize_relation",
    "user_text",
]
