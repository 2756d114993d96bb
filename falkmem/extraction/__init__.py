"""Entity and relation extraction: the rule-based default, the LLM extractor and their models."""

from .known import KnownEntities, KnownMatch
from .llm import LLMExtractor, user_text
from .rules import RuleExtractor
from .types import EntityMention, Extraction, Extractor, Triple
from .vocab import ENTITY_TYPES, RELATIONS, EntityType, Relation, lookup_relation, normalize_relation

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
    "lookup_relation",
    "normalize_relation",
    "user_text",
]
